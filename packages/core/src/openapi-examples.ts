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

/**
 * Values for fields of these names, used when the schema allows them (no pattern, within
 * bounds): real records of the Discogs samples (data/discogs: master 113, "Moments In Time" by
 * Vince Watson, Discogs artist 3225, cluster_id 3225 × 4 + 1) and the Bandcamp feed beside them.
 */
const BY_NAME: Record<string, string | number> = {
  name: 'Vince Watson',
  real_name: 'Vince Watson',
  slug: 'vince-watson',
  title: 'Moments In Time',
  country: 'Sweden',
  genre: 'Electronic',
  genres: 'Electronic',
  styles: 'Techno',
  formats: 'Vinyl',
  tags: 'techno',
  value: 'Electronic',
  catno: 'SK032',
  released: '2002-04-01',
  data_quality: 'Correct',
  anv: '',
  join: '',
  role: 'Main',
  date: '2026-06-22',
  as_of: '2026-06-22',
  month: '2026-11',
  resets_at: '2026-12-01T00:00:00.000Z',
  url: 'https://vincewatson.bandcamp.com',
  self: 'https://catalogue.example.org/api/v1/artist/12901',
  route: '/api/v2/artist/{key}',
  method: 'GET',
  path: '/api/v1/search',
  email: 'ops@label.example',
  customer_id: 'cust_01JD3Q9V5TQ8R0Z6W4N2M7XK1C',
  id: 'key_01JD3Q9V5TQ8R0Z6W4N2M7XK1C',
  tier: 'self_serve_99',
  version: 'v1',
  master_id: 113,
  ids: 113,
  search_id: 'srch_01JD3Q9V5TQ8R0Z6W4N2M7XK1C',
  q: 'moments in time',
  release_id: 116925,
  main_release_id: 116925,
  cluster_id: 12901,
  year: 2002,
  count: 3,
  calls: 25,
  quota: 50000,
  remaining: 49975,
  followers: 1234,
  supporters: 210,
};

/**
 * What a field of these names holds inside an object held by a field of the first name (a
 * credited label is not an artist): the Discogs label 5 (Svek) of release 1, and the festival
 * of the lineup feed that books Vince Watson.
 */
const WITHIN: Record<string, Record<string, string | number>> = {
  labels: { name: 'Svek', slug: 'svek', cluster_id: 22, catno: 'SK032' },
  top_label: { name: 'Svek', slug: 'svek', cluster_id: 22 },
  festival_appearances: { name: 'Movement Detroit', slug: 'movement-detroit', cluster_id: 31, year: 2026, billing: 'headliner' },
  locators: { source: 'discogs', id: '3225', url: 'https://www.discogs.com/artist/3225' },
  info: { title: 'Music Catalogue Data Service v1', version: '1.0.0' },
  active_years: { first: 1999, last: 2016 },
  limits: { quota_per_month: 1_000_000, burst_per_minute: 2000, concurrency: 10, batch_max: 500 },
  top_genres: { name: 'Electronic' },
  top_styles: { name: 'Techno' },
  tags: { name: 'techno' },
};

/**
 * The key one entry of a record (`v.record`) shows, by the field holding it: a real key of that
 * map, never a made-up one. A map of lists keyed by facet (`GET /facets`) shows `genre`.
 */
const MAP_KEYS: Record<string, string> = {
  _links: 'self',
  fields: 'followers',
  dossiers: 'artist',
  facets: 'identity',
  identity: 'name',
  checks: 'database',
  paths: '/api/v1/search',
  '/api/v1/search': 'get',
};

const BY_FORMAT: Record<string, string> = {
  uri: 'https://catalogue.example.org/api/v2/artist/vince-watson',
  email: 'ops@label.example',
  'date-time': '2026-11-01T00:00:00.000Z',
  date: '2026-11-01',
};

/** A value the schema accepts; `components` resolves `$ref`s. */
export function exampleOf(schema: unknown, components: Schemas, depth = 0, field?: string, within?: Record<string, string | number>): unknown {
  if (!schema || typeof schema !== 'object' || depth > 40) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') return exampleOf(components[s.$ref.split('/').pop() as string], components, depth + 1, field, within);
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  // A default is the value the route takes when the field is left out: the likeliest example.
  if (Array.isArray(s.enum)) return s.default !== undefined && s.enum.includes(s.default) ? s.default : s.enum[0];
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => exampleOf(part, components, depth + 1)));
  const options = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(options)) {
    // The non-null branch shows more than `null` would.
    const branch = options.find((o) => (o as Json).type !== 'null') ?? options[0];
    return exampleOf(branch, components, depth + 1, field, within);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return objectExample(s, components, depth, field);
    case 'array':
      return s.items ? [exampleOf(s.items, components, depth + 1, field, within)] : [];
    case 'integer':
    case 'number': {
      const hint = field ? (within?.[field] ?? BY_NAME[field]) : undefined;
      if (typeof hint === 'number' && withinBounds(s, hint)) return hint;
      return typeof s.minimum === 'number' ? s.minimum : typeof s.maximum === 'number' ? Math.min(1, s.maximum) : 1;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return stringExample(s, field, within);
    default:
      return s.properties ? objectExample(s, components, depth, field) : null;
  }
}

function objectExample(s: Json, components: Schemas, depth: number, field: string | undefined): Json {
  const out: Json = {};
  const within = field ? WITHIN[field] : undefined;
  for (const [name, sub] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {}))
    out[name] = exampleOf(sub, components, depth + 1, name, within);
  // A record (`_links`, a map of facets): one entry under a key it really has shows its shape.
  const rest = s.additionalProperties;
  if (rest && typeof rest === 'object' && Object.keys(rest).length > 0) {
    const key = field === 'facets' && (rest as Json).type === 'array' ? 'genre' : field ? MAP_KEYS[field] : undefined;
    if (key) out[key] = exampleOf(rest, components, depth + 1, key);
  }
  return out;
}

function withinBounds(s: Json, value: number): boolean {
  return !(typeof s.minimum === 'number' && value < s.minimum) && !(typeof s.maximum === 'number' && value > s.maximum);
}

function stringExample(s: Json, field: string | undefined, within: Record<string, string | number> | undefined): string {
  if (typeof s.format === 'string' && BY_FORMAT[s.format]) return BY_FORMAT[s.format] as string;
  const hint = field ? (within?.[field] ?? BY_NAME[field]) : undefined;
  if (
    typeof hint === 'string' &&
    (typeof s.pattern !== 'string' || new RegExp(s.pattern, 'u').test(hint)) &&
    (typeof s.maxLength !== 'number' || hint.length <= s.maxLength)
  )
    return hint;
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const text = 'text';
  return text.length >= min ? text : text.padEnd(min, 'x');
}
