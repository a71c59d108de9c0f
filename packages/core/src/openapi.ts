/**
 * OpenAPI 3.1 documents built from the route list and the same valibot schemas that validate
 * requests and type responses, so the description cannot drift from the code.
 */
import type { ErrorCode } from './http/api-error.js';
import type { RouteDef } from './http/route.js';
import { exampleOf } from './openapi-examples.js';
import { bodySchema, componentSchemas, type Json, querySchema, usedComponents } from './openapi-schemas.js';
import { isV1Path, type RouteKind, routeKind } from './versioning.js';

export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_query: 400,
  invalid_facet: 400,
  invalid_master_id: 400,
  invalid_batch_size: 400,
  invalid_body: 400,
  invalid_signature: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  revoked_api_key: 401,
  invalid_beacon_token: 401,
  unauthorized: 401,
  payment_required: 402,
  not_found: 404,
  route_not_found: 404,
  master_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  billing_unavailable: 503,
  pool_exhausted: 503,
  database_unavailable: 503,
  not_ready: 503,
  request_aborted: 504,
  query_timeout: 504,
};

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
    error: { type: 'string', description: 'Machine code.', enum: Object.keys(ERROR_STATUS) },
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

export interface OpenApiOptions {
  version: 'v1' | 'v2';
  baseUrl: string;
  /** Keep a route in this document. */
  include(route: RouteDef): boolean;
}

/** What an error example adds to `{error, message, request_id}` for codes that carry more. */
const ERROR_EXTRAS: Partial<Record<ErrorCode, Json>> = {
  invalid_query: { details: [{ path: 'limit', message: 'must be at most 100' }] },
  invalid_facet: { details: [{ path: 'facets', message: 'not a facet name', raw: 'colour', normalized: 'colour' }] },
  invalid_body: { details: [{ path: 'email', message: 'must be an e-mail address' }] },
  rate_limited: { retry_after_seconds: 12, reason: 'burst' },
  master_not_found: { master_id: 113 },
  method_not_allowed: { allow: ['GET'] },
  payload_too_large: { max_bytes: 32768 },
  invalid_batch_size: { max_ids: 100 },
};

function errorExample(code: ErrorCode): Json {
  return { error: code, message: `The request failed: ${code.replaceAll('_', ' ')}.`, request_id: '01JD3Q9V5TQ8R0Z6W4N2M7XK1C', ...ERROR_EXTRAS[code] };
}

export function buildOpenApi(routes: readonly RouteDef[], options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, Json> = { Error: ERROR_BODY, ...componentSchemas() };
  for (const route of routes) {
    if (!options.include(route)) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    // v1 keeper and demoted routes carry the cutover's headers and answers; operational ones do not.
    const kind: RouteKind | null = isV1Path(route.path) ? routeKind(route, routes) : null;
    const cutover = kind === 'keeper' || kind === 'demoted';
    const parameters: unknown[] = [];
    for (const match of route.path.matchAll(/:(\w+)/g)) {
      const name = match[1] as string;
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: name === 'id' ? { type: 'integer', minimum: 1, maximum: 2_000_000_000 } : { type: 'string' },
        description: PATH_PARAM_DOCS[name] ?? 'A cluster_id, a slug, or a typed locator (discogs:123, mbid:<uuid>).',
      });
    }
    for (const [name, param] of Object.entries(route.query ?? {})) {
      const schema = querySchema(param.schema);
      const required = (param.schema as { type?: string }).type !== 'optional';
      const description = typeof schema.description === 'string' ? schema.description : undefined;
      parameters.push({
        name,
        in: 'query',
        required,
        ...(description ? { description } : {}),
        schema: param.multi ? { type: 'array', items: schema } : schema,
        ...(param.multi ? { style: 'form', explode: true } : {}),
      });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, doc] of Object.entries(route.responses)) {
      const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
      if (route.access === 'key' || route.access === 'key-uncounted') {
        for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit']) headers[h] = headerRef(h);
      }
      for (const h of doc.headers ?? []) headers[h] = headerRef(h);
      if (cutover) for (const h of DEPRECATION_HEADERS) headers[h] = headerRef(h);
      const schema = doc.schema ? bodySchema(doc.schema) : undefined;
      responses[status] = {
        description: doc.description,
        headers,
        ...(schema ? { content: { 'application/json': { schema, example: exampleOf(schema, schemas) } } } : {}),
      };
    }
    if (kind === 'keeper') {
      const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id'), Location: headerRef('Location') };
      for (const h of DEPRECATION_HEADERS) headers[h] = headerRef(h);
      responses['308'] = { description: 'From the v1 sunset: permanent redirect to the same call on /api/v2 (method and query kept).', headers };
    }
    // Every route's query is strict, so any of them can answer invalid_query.
    const codes = new Set<ErrorCode>([...(SHARED_ERRORS[route.access] ?? []), ...((route.errors ?? []) as ErrorCode[]), 'invalid_query', 'method_not_allowed']);
    if (kind === 'demoted') codes.add('gone');
    // A JSON body is validated strictly: malformed fields answer invalid_body.
    if (route.body) codes.add('invalid_body');
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
    for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
      if (status === 429)
        for (const h of ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy', 'RateLimit'])
          headers[h] = headerRef(h);
      if (status === 503) headers['Retry-After'] = headerRef('Retry-After');
      if (cutover) for (const h of DEPRECATION_HEADERS) headers[h] = headerRef(h);
      responses[String(status)] = {
        description: `Error: ${list.join(', ')}.`,
        headers,
        // The shared body, narrowed to the codes this route can answer with at this status.
        content: {
          'application/json': {
            schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { enum: list } } }] },
            example: errorExample(list[0] as ErrorCode),
          },
        },
      };
    }
    const security =
      route.access === 'key' || route.access === 'key-uncounted'
        ? [{ ApiKey: [] }]
        : route.access === 'admin'
          ? [{ AdminToken: [] }]
          : route.tags.includes('beacons')
            ? [{ BeaconToken: [] }]
            : [];
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[route.method.toLowerCase()] = {
      operationId: operationId(route),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      security,
      parameters,
      ...(route.body
        ? { requestBody: { required: true, description: route.body.description, content: { 'application/json': { schema: bodySchema(route.body.schema) } } } }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `Music Catalogue Data Service ${options.version}`,
      version: options.version === 'v1' ? '1.0.0' : '2.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Read-oriented JSON API to a music catalogue: search, facets, dossiers, Bandcamp signals, breakouts, tastemakers, resolve and master lookup. Send your key in X-API-Key.',
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
    }),
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
