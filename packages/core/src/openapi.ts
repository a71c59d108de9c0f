/**
 * OpenAPI 3.1 documents built from the route list and the same valibot schemas that validate
 * requests and type responses, so the description cannot drift from the code.
 */
import { ERRORS, type ErrorCode, type ErrorRow } from './errors/codes.js';
import type { RouteDef } from './http/route.js';
import { exampleOf } from './openapi-examples.js';
import { bodySchema, componentSchemas, type Json, querySchema, usedComponents } from './openapi-schemas.js';
import { isV1Path, type RouteKind, routeKind } from './versioning.js';

const SHARED_ERRORS: Record<RouteDef['access'], ErrorCode[]> = {
  key: [
    'missing_api_key',
    'invalid_api_key',
    'revoked_api_key',
    'payment_required',
    'rate_limited',
    'internal',
    'pool_exhausted',
    'database_unavailable',
    'request_aborted',
    'query_timeout',
  ],
  'key-uncounted': [
    'missing_api_key',
    'invalid_api_key',
    'revoked_api_key',
    'payment_required',
    'internal',
    'pool_exhausted',
    'database_unavailable',
    'request_aborted',
    'query_timeout',
  ],
  public: ['rate_limited', 'internal'],
  admin: ['unauthorized', 'internal', 'pool_exhausted', 'database_unavailable', 'request_aborted'],
  open: ['internal'],
};

const ERROR_BODY = {
  type: 'object',
  required: ['error', 'message', 'request_id'],
  properties: {
    error: { $ref: '#/components/schemas/ErrorCode' },
    details: {
      type: 'array',
      description: 'One entry per validation issue.',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'The parameter or body field at fault.' },
          message: { type: 'string' },
          raw: { type: 'string', description: 'On invalid_facet: the name as sent.' },
          normalized: { type: 'string', description: 'On invalid_facet: its NFKC form, as tried.' },
          imitates: { type: 'string', description: 'On invalid_query: the allowed name a look-alike parameter name imitates.' },
          value: { type: 'string', description: 'On invalid_query: the refused value.' },
        },
        additionalProperties: false,
      },
    },
    retry_after_seconds: { type: 'integer', description: 'On rate_limited: seconds to wait.' },
    reason: { type: 'string', enum: ['burst', 'quota', 'concurrency'], description: 'On rate_limited: which limit was hit.' },
    master_id: { type: 'integer', description: 'On master_not_found: the id asked for.' },
    message: { type: 'string', description: 'A sentence for humans.' },
    request_id: { type: 'string', description: 'The X-Request-Id of this answer: cite it to support.' },
    allow: { type: 'array', items: { type: 'string' }, description: 'On method_not_allowed: the methods the path accepts.' },
    max_bytes: { type: 'integer', description: 'On payload_too_large: the cap.' },
    max_ids: { type: 'integer', description: 'On invalid_batch_size: the tier’s batch cap.' },
    where: { type: 'string', description: 'On gone: where the data of the retired route sits in v2.' },
    successor: { type: 'string', description: 'On gone: the v2 URL to call instead.' },
    migration_guide: { type: 'string', description: 'On gone: the migration guide.' },
  },
  additionalProperties: false,
};

/** Every code any route or host answers with, one enum (issue 28 item 1). */
const ERROR_CODE = { type: 'string', description: 'Machine code of the refusal.', enum: Object.keys(ERRORS) };

const HEADERS = {
  'X-Request-Id': { description: 'Identifies this request in logs and support reports.', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Burst limit per minute of the tier.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in the burst window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix epoch seconds when the burst window resets.', schema: { type: 'integer' } },
  'RateLimit-Policy': {
    description:
      'draft-ietf-httpapi-ratelimit-headers: the policies, `"burst";q=<per minute>;w=60` and, with a key, `"quota";q=<per month>;w=<seconds in this month>`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'draft-ietf-httpapi-ratelimit-headers: what remains of each policy and when it resets, `"burst";r=<left>;t=<seconds>, "quota";r=<left>;t=<seconds>`.',
    schema: { type: 'string' },
  },
  'X-Search-Latency-Ms': { description: 'Time the search took in the service, in milliseconds.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  Deprecation: { description: 'v1 only, from 30 days before the v1 sunset: `true` (RFC 8594).', schema: { type: 'string', const: 'true' } },
  Sunset: { description: 'v1 only, from 30 days before the v1 sunset: the sunset instant as an HTTP date.', schema: { type: 'string' } },
  Link: { description: 'v1 only, from 30 days before the v1 sunset: `<v2 URL>; rel="successor-version"`.', schema: { type: 'string' } },
  Location: { description: 'The v2 URL, method and query kept.', schema: { type: 'string', format: 'uri' } },
  ETag: {
    description:
      'Strong validator of this representation: send it back in If-None-Match to get 304 while it is current. A compressed answer’s tag names its coding (`"…-gzip"`).',
    schema: { type: 'string', pattern: '^"[^"]*"$' },
  },
  'Cache-Control': {
    description:
      'A catalogue read’s 200 and 304: `private, max-age=3600` (records and dossiers) or `private, max-age=300` (lists, facets, resolve, manifests, the root index, the documents). Every other answer: `no-store`.',
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods this path answers.', schema: { type: 'string' } },
  Vary: { description: '`Accept-Encoding` on answers of 1 KB and more; `Origin` when CORS_ORIGINS is set.', schema: { type: 'string' } },
  'Access-Control-Allow-Origin': { description: 'With CORS_ORIGINS: the allowed Origin of the request, or `*`.', schema: { type: 'string' } },
  'Access-Control-Allow-Methods': { description: 'A preflight from an allowed origin: the methods of this path.', schema: { type: 'string' } },
  'Access-Control-Allow-Headers': {
    description: 'A preflight from an allowed origin: `x-api-key, content-type, authorization, if-none-match`.',
    schema: { type: 'string' },
  },
  'Access-Control-Max-Age': { description: 'A preflight from an allowed origin: 7200.', schema: { type: 'integer' } },
};

const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'];

function headerRef(name: string) {
  return { $ref: `#/components/headers/${name}` };
}

const PATH_PARAM_DOCS: Record<string, string> = {
  id: 'Master id: digits only, no leading zero, 1 to 2,000,000,000.',
  slug: 'A slug: lowercase letters, digits and hyphens, with at least one letter.',
  artistKey: 'An artist: cluster_id, slug, or typed locator (discogs:123, mbid:<uuid>).',
};

/** A cluster_id, a slug, `discogs:<id>` or `mbid:<uuid>` (routes/shared/keys.ts, after NFKC). */
const KEY_PATTERN =
  '^(?:[1-9][0-9]*|discogs:[1-9][0-9]*|mbid:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|[a-z0-9-]*[a-z][a-z0-9-]*)$';
const SLUG_PATTERN = '^[a-z0-9-]*[a-z][a-z0-9-]*$';

/** A path parameter's schema and an example from the Discogs samples (data/discogs) that the demo catalogue holds. */
function pathParameter(name: string, path: string): Record<string, unknown> {
  const kind = /\/label\//.test(path) ? 'label' : /\/festival\//.test(path) ? 'festival' : 'artist';
  const slug = { artist: 'vince-watson', label: 'planet-e', festival: 'movement-detroit' }[kind];
  const schema =
    name === 'id'
      ? { type: 'integer', minimum: 1, maximum: 2_000_000_000 }
      : name === 'slug'
        ? { type: 'string', minLength: 1, maxLength: 200, pattern: SLUG_PATTERN }
        : { type: 'string', minLength: 1, maxLength: 200, pattern: KEY_PATTERN };
  return {
    name,
    in: 'path',
    required: true,
    schema,
    description: PATH_PARAM_DOCS[name] ?? 'A cluster_id, a slug, or a typed locator (discogs:123, mbid:<uuid>).',
    example: name === 'id' ? 113 : slug,
  };
}

/**
 * Examples a tool sends when it calls an operation: every required query parameter's, and those
 * without which a call of a route with alternative parameters (resolve, Bandcamp release) is a 400.
 */
const QUERY_EXAMPLES: Record<string, string> = { path: '/api/v1/masters/113', q: 'Vince Watson', artist: 'vince-watson' };

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of a representation you hold: while it is current the answer is 304 without a body (still a counted call).',
  schema: { type: 'string' },
  example: '"9f2c4e1a7b3d5f60a1c2e3d4b5a69788"',
};

/** What a host answers before the service sees the request (docs/decisions.md §9), shared by every operation. */
const HOST_RESPONSES: Record<string, { name: string; description: string; code?: ErrorCode }> = {
  '408': { name: 'RequestTimeout', description: 'Error: request_timeout. The request did not arrive in time (the Node host).', code: 'request_timeout' },
  '414': {
    name: 'UriTooLong',
    description:
      'A request target over a proxy’s limit, answered by a proxy or load balancer in front of the host, in its own words (the hosts count the request line with the headers and answer 431).',
  },
  '431': {
    name: 'HeadersTooLarge',
    description: 'Error: headers_too_large. The request line and headers are over the host’s limit.',
    code: 'headers_too_large',
  },
};

function sharedResponses(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, description, code } of Object.values(HOST_RESPONSES)) {
    out[name] = {
      description,
      headers: { 'X-Request-Id': headerRef('X-Request-Id'), 'Cache-Control': headerRef('Cache-Control') },
      ...(code
        ? {
            content: {
              'application/json': {
                schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: [code] } } }] },
                example: errorExample(code),
              },
            },
          }
        : {}),
    };
  }
  return out;
}

export interface OpenApiOptions {
  version: 'v1' | 'v2';
  baseUrl: string;
  /** Keep a route in this document. */
  include(route: RouteDef): boolean;
}

/** A code's example: the sentence the service sends with it and the row's example fields (errors/codes.ts). */
function errorExample(code: ErrorCode): Json {
  const row: ErrorRow = ERRORS[code];
  return { error: code, message: row.message, request_id: '01JD3Q9V5TQ8R0Z6W4N2M7XK1C', ...row.example } as Json;
}

const KEY_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'];

/**
 * Codes every operation can answer besides its own: its query is strict (invalid_query), a method
 * the path lacks is 405, and the hosts refuse a malformed request (400 bad_request) and a body
 * over their 1 MB cap (413) before the service sees it.
 */
const EVERY_OPERATION: ErrorCode[] = ['invalid_query', 'method_not_allowed', 'bad_request', 'payload_too_large'];

type Doc = Record<string, unknown>;

export function buildOpenApi(routes: readonly RouteDef[], options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, Doc>> = {};
  const schemas: Record<string, Json> = { Error: ERROR_BODY, ErrorCode: ERROR_CODE, ...componentSchemas() };
  for (const route of routes) {
    if (!options.include(route)) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    if (route.foreignBody) schemas[route.foreignBody.name] = route.foreignBody.schema;
    const operation = operationOf(route, routes, path, schemas);
    paths[path] ??= {};
    (paths[path] as Record<string, Doc>)[route.method.toLowerCase()] = operation;
    // HEAD is answered wherever GET is: the same status and headers, no body.
    if (route.method === 'GET') (paths[path] as Record<string, Doc>).head = headOf(operation);
  }
  for (const [path, item] of Object.entries(paths)) item.options = optionsOf(path, item);
  return {
    openapi: '3.1.0',
    info: {
      title: `Music Catalogue Data Service ${options.version}`,
      version: options.version === 'v1' ? '1.0.0' : '2.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Read-oriented JSON API to a music catalogue: search, facets, dossiers, Bandcamp signals, breakouts, tastemakers, resolve and master lookup. Send your key in X-API-Key.\n\n' +
        'Every path answers HEAD where it answers GET and OPTIONS (204 with Allow); another method answers 405 method_not_allowed with Allow. ' +
        'Every answer carries X-Request-Id and Cache-Control; with CORS_ORIGINS set, answers to an allowed Origin also carry Access-Control-Allow-Origin and Access-Control-Expose-Headers, and every answer Vary: Origin.',
    },
    servers: [{ url: options.baseUrl }],
    security: [{ ApiKey: [] }],
    paths,
    components: usedComponents(paths, {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'ck_live_… or ck_test_… followed by 32 base62 characters.' },
        AdminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the deployment.' },
        BeaconToken: { type: 'http', scheme: 'bearer', description: 'beacon_token of a search answer: bound to its search_id and key, valid 30 minutes.' },
      },
      headers: HEADERS,
      schemas,
      responses: sharedResponses(),
    }),
  };
}

function refs(names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, headerRef(name)]));
}

function operationOf(route: RouteDef, routes: readonly RouteDef[], path: string, schemas: Record<string, Json>): Doc {
  // v1 keeper and demoted routes carry the cutover's headers and answers; operational ones do not.
  const kind: RouteKind | null = isV1Path(route.path) ? routeKind(route, routes) : null;
  const cutover = kind === 'keeper' || kind === 'demoted';
  const keyed = route.access === 'key' || route.access === 'key-uncounted';
  const parameters: unknown[] = [...route.path.matchAll(/:(\w+)/g)].map((match) => pathParameter(match[1] as string, path));
  for (const [name, param] of Object.entries(route.query ?? {})) {
    const schema = querySchema(param.schema);
    const required = (param.schema as { type?: string }).type !== 'optional';
    const description = typeof schema.description === 'string' ? schema.description : undefined;
    const example = QUERY_EXAMPLES[name];
    parameters.push({
      name,
      in: 'query',
      required,
      ...(description ? { description } : {}),
      ...(example !== undefined ? { example } : {}),
      schema: param.multi ? { type: 'array', items: schema } : schema,
      ...(param.multi ? { style: 'form', explode: true } : {}),
    });
  }
  for (const h of route.headers ?? [])
    parameters.push({ name: h.name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' }, example: h.example });
  if (route.cache) parameters.push(IF_NONE_MATCH);

  const responses: Record<string, unknown> = {};
  const always = ['X-Request-Id', 'Cache-Control', ...(keyed ? KEY_HEADERS : []), ...(cutover ? DEPRECATION_HEADERS : [])];
  for (const [status, doc] of Object.entries(route.responses)) {
    const schema = doc.schema ? bodySchema(doc.schema) : undefined;
    const representation = schema ? ['Vary', ...(route.cache && status === '200' ? ['ETag'] : [])] : [];
    responses[status] = {
      description: doc.description,
      headers: refs([...always, ...(doc.headers ?? []), ...representation]),
      ...(schema ? { content: { 'application/json': { schema, example: exampleOf(schema, schemas) } } } : {}),
    };
  }
  if (route.cache) {
    responses['304'] = {
      description: 'Not Modified: the If-None-Match names the current ETag; the validators, no body (a counted call).',
      headers: refs([...always, 'ETag', 'Vary']),
    };
  }
  if (kind === 'keeper') {
    responses['308'] = {
      description: 'From the v1 sunset: permanent redirect to the same call on /api/v2 (method and query kept).',
      headers: refs(['X-Request-Id', 'Cache-Control', 'Location', ...DEPRECATION_HEADERS]),
    };
  }
  const codes = new Set<ErrorCode>([...(SHARED_ERRORS[route.access] ?? []), ...((route.errors ?? []) as ErrorCode[]), ...EVERY_OPERATION]);
  if (kind === 'demoted') codes.add('gone');
  // A JSON body is validated strictly (invalid_body) and must say it is JSON (415).
  if (route.body) {
    codes.add('invalid_body');
    codes.add('unsupported_media_type');
  }
  // An empty parameter segment (`/api/v1/label/`) names no route.
  if (route.path.includes(':')) codes.add('route_not_found');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const extra = status === 429 ? ['Retry-After', ...KEY_HEADERS] : status === 503 ? ['Retry-After'] : status === 405 ? ['Allow'] : [];
    responses[String(status)] = {
      description: `Error: ${list.join(', ')}.`,
      headers: refs(['X-Request-Id', 'Cache-Control', ...extra, ...(cutover ? DEPRECATION_HEADERS : [])]),
      // The shared body, narrowed to the codes this route can answer with at this status.
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: list } } }] },
          example: errorExample(list[0] as ErrorCode),
        },
      },
    };
  }
  for (const [status, { name }] of Object.entries(HOST_RESPONSES)) responses[status] = { $ref: `#/components/responses/${name}` };
  const security = keyed ? [{ ApiKey: [] }] : route.access === 'admin' ? [{ AdminToken: [] }] : route.tags.includes('beacons') ? [{ BeaconToken: [] }] : [];
  const sent = route.body ? bodySchema(route.body.schema) : undefined;
  const requestBody = sent
    ? { required: true, description: route.body?.description, content: { 'application/json': { schema: sent, example: exampleOf(sent, schemas) } } }
    : route.foreignBody
      ? {
          required: true,
          description: route.foreignBody.description,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${route.foreignBody.name}` }, example: route.foreignBody.example } },
        }
      : undefined;
  return {
    operationId: operationId(route),
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b))),
  };
}

function hostRefusal(code: ErrorCode, description: string): Doc {
  return {
    description: `Error: ${code}. ${description}`,
    headers: refs(['X-Request-Id', 'Cache-Control']),
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: [code] } } }] },
        example: errorExample(code),
      },
    },
  };
}

/** HEAD: the GET's statuses and headers, no bodies. */
function headOf(get: Doc): Doc {
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, Doc>).map(([status, response]) => {
      if (response.$ref) return [status, response];
      const { content: _body, ...rest } = response;
      return [status, rest];
    }),
  );
  return {
    ...get,
    operationId: `head${(get.operationId as string).replace(/^[a-z]+/, '')}`,
    summary: `${get.summary} (headers only)`,
    description: 'The GET’s status and headers without a body (counted like the GET).',
    responses,
  };
}

/** OPTIONS: 204 with Allow, on every path; a CORS preflight from an allowed origin also learns the methods and headers. */
function optionsOf(path: string, item: Record<string, Doc>): Doc {
  const first = Object.values(item)[0] as Doc;
  const parameters = (first.parameters as Array<{ in: string }>).filter((p) => p.in === 'path');
  return {
    operationId: `options${(first.operationId as string).replace(/^[a-z]+/, '')}`,
    summary: `Methods of ${path}`,
    description: 'Answers 204 with Allow, reaching no gate and counting nowhere; with CORS_ORIGINS, a preflight from an allowed origin gets the CORS answer.',
    tags: first.tags,
    security: [],
    parameters: [
      ...parameters,
      {
        name: 'Origin',
        in: 'header',
        required: false,
        description: 'A browser page’s origin (CORS).',
        schema: { type: 'string' },
        example: 'https://app.label.example',
      },
      {
        name: 'Access-Control-Request-Method',
        in: 'header',
        required: false,
        description: 'A CORS preflight: the method the page means to use.',
        schema: { type: 'string' },
        example: 'GET',
      },
    ],
    responses: {
      '204': {
        description: 'The methods of this path in Allow; to a preflight from an allowed origin, the CORS headers too.',
        headers: refs([
          'X-Request-Id',
          'Allow',
          'Access-Control-Allow-Origin',
          'Access-Control-Allow-Methods',
          'Access-Control-Allow-Headers',
          'Access-Control-Max-Age',
          'Vary',
        ]),
      },
      // What the hosts refuse before the service: a malformed request, a body over their cap.
      '400': hostRefusal('bad_request', 'A malformed request (the host).'),
      '413': hostRefusal('payload_too_large', 'A body over the host’s 1 MB cap.'),
      ...Object.fromEntries(Object.entries(HOST_RESPONSES).map(([status, { name }]) => [status, { $ref: `#/components/responses/${name}` }])),
    },
  };
}

/**
 * A readable operationId, the same in v1 and v2 for the same call: the method, then the path
 * below the version in camel case, each parameter as `By<Name>` (GET /api/v1/masters/{id} →
 * getMastersById, GET /api/v1 → getIndex). A route may name its own.
 */
export function operationId(route: RouteDef): string {
  if (route.operationId) return route.operationId;
  const below = route.path.replace(/^\/api\/(v\d+|[a-z]+)(?=\/|$)/, '').replace(/\.json$/, '');
  const words = below
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[-_.]+/)));
  const pascal = words.map((w) => (w[0]?.toUpperCase() ?? '') + w.slice(1)).join('');
  return `${route.method.toLowerCase()}${pascal || 'Index'}`;
}
