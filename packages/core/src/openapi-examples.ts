/**
 * An example for every response of the OpenAPI documents (issue 16 item 6), made from the
 * response's own JSON Schema, so it cannot disagree with it: Redocly's
 * `no-invalid-media-type-examples` checks each one against its schema in `npm test`
 * (test/contract/redocly-lint.test.ts). A schema that says `examples` (a field with a pattern,
 * say) gives its first; a field of a familiar name gets a value from the demo catalogue's world
 * (docs: packages/importer/GENERATOR.md); any other gets a plain value within its bounds.
 */
import type { Json } from './openapi-schemas.js';

type Schemas = Record<string, Json>;

/** Values for fields of these names, used when the schema allows them (no pattern, within bounds). */
const BY_NAME: Record<string, string | number> = {
  name: 'Marla Vance',
  real_name: 'Marla Vance',
  slug: 'marla-vance',
  title: 'Moments In Time',
  country: 'Germany',
  genre: 'Electronic',
  genres: 'Electronic',
  styles: 'Techno',
  formats: 'Vinyl',
  tags: 'techno',
  catno: 'PE-113',
  released: '2002-05-14',
  date: '2026-11-01',
  as_of: '2026-11-01',
  month: '2026-11',
  resets_at: '2026-12-01T00:00:00.000Z',
  url: 'https://marlavance.bandcamp.com',
  self: 'https://catalogue.example.org/api/v1/masters/113',
  route: '/api/v2/artist/{key}',
  email: 'ops@label.example',
  customer_id: 'cust_01JD3Q9V5TQ8R0Z6W4N2M7XK1C',
  id: 'key_01JD3Q9V5TQ8R0Z6W4N2M7XK1C',
  tier: 'self_serve_99',
  master_id: 113,
  release_id: 1,
  main_release_id: 1,
  cluster_id: 4210,
  year: 2002,
  count: 3,
  calls: 25,
  quota: 50000,
  remaining: 49975,
};

const BY_FORMAT: Record<string, string> = {
  uri: 'https://catalogue.example.org/api/v2/artist/marla-vance',
  email: 'ops@label.example',
  'date-time': '2026-11-01T00:00:00.000Z',
  date: '2026-11-01',
};

/** A value the schema accepts; `components` resolves `$ref`s. */
export function exampleOf(schema: unknown, components: Schemas, depth = 0, field?: string): unknown {
  if (!schema || typeof schema !== 'object' || depth > 40) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return exampleOf(components[s.$ref.split('/').pop() as string], components, depth + 1);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => exampleOf(part, components, depth + 1)));
  const options = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(options)) {
    // The non-null branch shows more than `null` would.
    const branch = options.find((o) => (o as Json).type !== 'null') ?? options[0];
    return exampleOf(branch, components, depth + 1, field);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return objectExample(s, components, depth);
    case 'array':
      return s.items ? [exampleOf(s.items, components, depth + 1, field)] : [];
    case 'integer':
    case 'number':
      if (field && typeof BY_NAME[field] === 'number' && withinBounds(s, BY_NAME[field])) return BY_NAME[field];
      return typeof s.minimum === 'number' ? s.minimum : typeof s.maximum === 'number' ? Math.min(1, s.maximum) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringExample(s, field);
    default:
      return s.properties ? objectExample(s, components, depth) : null;
  }
}

function objectExample(s: Json, components: Schemas, depth: number): Json {
  const out: Json = {};
  for (const [name, sub] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {}))
    out[name] = exampleOf(sub, components, depth + 1, name);
  // A record (`_links`, a map of facets): one entry shows its shape.
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.self = exampleOf(s.additionalProperties, components, depth + 1, 'self');
  return out;
}

function withinBounds(s: Json, value: number): boolean {
  return !(typeof s.minimum === 'number' && value < s.minimum) && !(typeof s.maximum === 'number' && value > s.maximum);
}

function stringExample(s: Json, field: string | undefined): string {
  if (typeof s.format === 'string' && BY_FORMAT[s.format]) return BY_FORMAT[s.format] as string;
  const hint = field ? BY_NAME[field] : undefined;
  if (typeof hint === 'string' && s.pattern === undefined && (typeof s.maxLength !== 'number' || hint.length <= s.maxLength)) return hint;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const text = 'text';
  return text.length >= min ? text : text.padEnd(min, 'x');
}
