/**
 * The one HTTP fixture every host answers the same way: a list of request → expected-answer
 * cases covering auth, errors, limits, a data route, HEAD, 405, body limits and the request URL
 * (a malformed Host is 400; the path never comes from a header). The runners
 * (node/bun/deno.test.ts against real processes, lambda.test.ts against event JSON) feed it
 * the same setup: keys issued through POST /api/v1/admin/keys on the host under test.
 */

/** What a case may use: issued keys and a master id that exists in the demo catalogue. */
export interface FixtureContext {
  adminToken: string;
  /** self_serve_299 test key. */
  key: string;
  /** Contract key with burst_per_minute 1: its second call in a minute is refused. */
  limitedKey: string;
  masterId: number;
  /** The host takes the scheme from X-Forwarded-Proto (Lambda does; Node, Bun and Deno do not). */
  honoursForwardedProto: boolean;
}

export interface FixtureRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface ExpectedAnswer {
  status: number;
  /** Subset the JSON body must contain. */
  json?: Record<string, unknown>;
  /** true: present; false: absent; string: equal; RegExp: matches. */
  headers?: Record<string, string | RegExp | boolean>;
  /** The body must be empty (HEAD, 204). */
  emptyBody?: boolean;
}

export interface FixtureCase {
  name: string;
  request(ctx: FixtureContext): FixtureRequest;
  /** Requests sent first (their answers unchecked), e.g. to use up a burst. */
  prime?(ctx: FixtureContext): FixtureRequest[];
  expect(ctx: FixtureContext): ExpectedAnswer;
  /** The answer comes from the host itself (body cap, Host check), not the fetch handler (Lambda comparison skips it). */
  hostLevel?: boolean;
}

export const FIXTURE_ADMIN_TOKEN = 'fixture-admin-token-0123456789abcdef';
/** The host-level cap every host applies (HOST_MAX_BODY_BYTES). */
export const HOST_CAP = 1_048_576;

const json = { 'content-type': 'application/json' };
const withKey = (key: string, extra: Record<string, string> = {}) => ({ 'x-api-key': key, ...extra });
/** The service's request ids are ULIDs; the hosts' own refusals use the same form. */
const requestId = { 'x-request-id': /^[0-9A-Z]{26}$/ };
/** What every error answer carries (docs/decisions.md §6). */
export const errorHeaders = { 'content-type': /^application\/json/, 'cache-control': 'no-store', ...requestId };

const rootIndex = { name: 'Music Catalogue Data Service', version: 'v1' };

/**
 * A Host that is not an RFC 3986 authority is `400 bad_request` in the spec's error shape on
 * every host (RFC 9112 §3.2), sent with a valid key so that a host routing on it would show.
 */
function malformedHost(host: string, why: string): FixtureCase {
  return {
    name: `request URL: Host ${JSON.stringify(host)} (${why}) is 400 bad_request`,
    request: (c) => ({ method: 'GET', path: '/api/v1', headers: withKey(c.key, { host }) }),
    expect: () => ({ status: 400, json: { error: 'bad_request' }, headers: errorHeaders }),
    hostLevel: true,
  };
}

export const FIXTURE: FixtureCase[] = [
  malformedHost('a b', 'a space'),
  malformedHost('[::1', 'an unclosed IPv6 literal'),
  malformedHost('<bad host>', 'characters outside the authority grammar'),
  // Deno and Lambda used to build the URL as `scheme://${host}${path}`, so this served /api/v1/usage.
  malformedHost('x/api/v1/usage#', 'a path and a fragment: never the routed path'),
  malformedHost('catalogue.test:65536', 'a port over 65535'),
  {
    name: 'request URL: a valid IPv6 Host with a port serves the path the runtime received',
    request: () => ({ method: 'GET', path: '/api/v1', headers: { host: '[::1]:8080' } }),
    expect: () => ({ status: 200, json: rootIndex }),
  },
  {
    name: 'request URL: a malformed X-Forwarded-Proto is 400 where the host honours it, ignored elsewhere',
    request: () => ({ method: 'GET', path: '/api/v1', headers: { 'x-forwarded-proto': 'a b' } }),
    expect: (c) => (c.honoursForwardedProto ? { status: 400, json: { error: 'bad_request' }, headers: errorHeaders } : { status: 200, json: rootIndex }),
    hostLevel: true,
  },
  {
    name: 'data route: a master with the caller key',
    request: (c) => ({ method: 'GET', path: `/api/v1/masters/${c.masterId}`, headers: withKey(c.key) }),
    expect: (c) => ({
      status: 200,
      json: { master_id: c.masterId },
      headers: { 'content-type': /^application\/json/, 'x-ratelimit-limit': /^\d+$/, 'x-ratelimit-remaining': /^\d+$/, ...requestId },
    }),
  },
  {
    name: 'HEAD answers the GET headers without a body',
    request: (c) => ({ method: 'HEAD', path: `/api/v1/masters/${c.masterId}`, headers: withKey(c.key) }),
    expect: () => ({ status: 200, emptyBody: true, headers: { 'content-type': /^application\/json/, 'x-ratelimit-limit': /^\d+$/ } }),
  },
  {
    name: 'auth: no key',
    request: (c) => ({ method: 'GET', path: `/api/v1/masters/${c.masterId}` }),
    expect: () => ({ status: 401, json: { error: 'missing_api_key' }, headers: errorHeaders }),
  },
  {
    name: 'auth: unknown key',
    request: (c) => ({ method: 'GET', path: `/api/v1/masters/${c.masterId}`, headers: withKey('ck_live_00000000000000000000000000000000') }),
    expect: () => ({ status: 401, json: { error: 'invalid_api_key' }, headers: errorHeaders }),
  },
  {
    name: 'auth: admin route without the admin token',
    request: () => ({ method: 'POST', path: '/api/v1/admin/keys', headers: { ...json, authorization: 'Bearer wrong' }, body: '{"email":"a@example.com"}' }),
    expect: () => ({ status: 401, json: { error: 'unauthorized' }, headers: errorHeaders }),
  },
  {
    name: 'errors: unknown master',
    request: (c) => ({ method: 'GET', path: '/api/v1/masters/999999999', headers: withKey(c.key) }),
    expect: () => ({ status: 404, json: { error: 'master_not_found' }, headers: errorHeaders }),
  },
  {
    name: 'errors: unknown route',
    request: (c) => ({ method: 'GET', path: '/api/v1/no-such-route', headers: withKey(c.key) }),
    expect: () => ({ status: 404, json: { error: 'route_not_found' }, headers: errorHeaders }),
  },
  {
    name: 'errors: invalid query',
    request: (c) => ({ method: 'GET', path: '/api/v1/search?q=house&limit=abc', headers: withKey(c.key) }),
    expect: () => ({ status: 400, json: { error: 'invalid_query' }, headers: errorHeaders }),
  },
  {
    name: 'errors: a repeated query parameter reaches the service intact',
    request: (c) => ({ method: 'GET', path: '/api/v1/search?q=house&limit=1&limit=2', headers: withKey(c.key) }),
    expect: () => ({ status: 400, json: { error: 'invalid_query' }, headers: errorHeaders }),
  },
  {
    name: '405: a method the route does not have',
    request: (c) => ({ method: 'DELETE', path: `/api/v1/masters/${c.masterId}`, headers: withKey(c.key) }),
    expect: () => ({ status: 405, json: { error: 'method_not_allowed' }, headers: { ...errorHeaders, allow: /GET/ } }),
  },
  {
    name: 'OPTIONS lists the methods',
    request: (c) => ({ method: 'OPTIONS', path: `/api/v1/masters/${c.masterId}` }),
    expect: () => ({ status: 204, emptyBody: true, headers: { allow: /GET/ } }),
  },
  {
    name: 'compression: a large answer is gzipped for a client that accepts it',
    request: () => ({ method: 'GET', path: '/api/v1/openapi.json', headers: { 'accept-encoding': 'gzip' } }),
    expect: () => ({
      status: 200,
      json: { openapi: '3.1.0' },
      headers: { 'content-encoding': 'gzip', vary: /accept-encoding/i, etag: /^"[0-9a-f]{32}-gzip"$/ },
    }),
  },
  {
    name: 'compression: gzip;q=0 is refused, so the answer is identity',
    request: () => ({ method: 'GET', path: '/api/v1/openapi.json', headers: { 'accept-encoding': 'gzip;q=0, identity' } }),
    expect: () => ({ status: 200, json: { openapi: '3.1.0' }, headers: { 'content-encoding': false, vary: /accept-encoding/i } }),
  },
  {
    name: 'conditional GET: If-None-Match * on a master answers 304 without a body, with its validators',
    request: (c) => ({ method: 'GET', path: `/api/v1/masters/${c.masterId}`, headers: withKey(c.key, { 'if-none-match': '*' }) }),
    expect: () => ({ status: 304, emptyBody: true, headers: { etag: /^"[0-9a-f]{32}"$/, 'cache-control': 'private, max-age=3600', ...requestId } }),
  },
  {
    name: 'health: /healthz is up, public and unmetered',
    request: () => ({ method: 'GET', path: '/healthz' }),
    expect: () => ({ status: 200, json: { status: 'ok' }, headers: { 'cache-control': 'no-store', 'x-ratelimit-limit': false, ...requestId } }),
  },
  {
    name: 'health: /readyz on memory storage is ready',
    request: () => ({ method: 'GET', path: '/readyz' }),
    expect: () => ({ status: 200, json: { status: 'ready' }, headers: { 'x-ratelimit-limit': false } }),
  },
  {
    name: 'data route with a body: batch of masters',
    request: (c) => ({ method: 'POST', path: '/api/v1/masters/batch', headers: withKey(c.key, json), body: JSON.stringify({ ids: [c.masterId] }) }),
    expect: () => ({ status: 200, headers: { 'content-type': /^application\/json/ } }),
  },
  {
    name: 'body limits: malformed JSON body',
    request: () => ({ method: 'POST', path: '/api/v1/admin/keys', headers: { ...json, authorization: `Bearer ${FIXTURE_ADMIN_TOKEN}` }, body: '{"email":' }),
    expect: () => ({ status: 400, json: { error: 'invalid_body' }, headers: errorHeaders }),
  },
  {
    name: 'body limits: the route cap (32 KB on masters/batch)',
    request: (c) => ({
      method: 'POST',
      path: '/api/v1/masters/batch',
      headers: withKey(c.key, json),
      body: JSON.stringify({ ids: [], pad: 'x'.repeat(40_000) }),
    }),
    expect: () => ({ status: 413, json: { error: 'payload_too_large', max_bytes: 32_768 }, headers: errorHeaders }),
  },
  {
    name: 'body limits: the host cap (1 MB) before the service reads anything',
    request: () => ({
      method: 'POST',
      path: '/api/v1/admin/keys',
      headers: { ...json, authorization: `Bearer ${FIXTURE_ADMIN_TOKEN}` },
      body: new Uint8Array(HOST_CAP + 1024).fill(0x20),
    }),
    expect: () => ({
      status: 413,
      json: { error: 'payload_too_large', max_bytes: HOST_CAP },
      headers: errorHeaders,
    }),
    hostLevel: true,
  },
  {
    name: 'limits: burst exceeded',
    prime: (c) => [{ method: 'GET', path: `/api/v1/masters/${c.masterId}`, headers: withKey(c.limitedKey) }],
    request: (c) => ({ method: 'GET', path: `/api/v1/masters/${c.masterId}`, headers: withKey(c.limitedKey) }),
    expect: () => ({
      status: 429,
      json: { error: 'rate_limited' },
      headers: { ...errorHeaders, 'retry-after': /^\d+$/, 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' },
    }),
  },
];
