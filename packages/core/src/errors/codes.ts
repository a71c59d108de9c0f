/**
 * The error table: every code the service or a host answers with, one row each (issue 38
 * step 2; docs/decisions.md §6, "Errors"). A row is everything known of a code before the
 * refusal happens:
 *
 * - `status`: the HTTP status of every answer with this code;
 * - `message`: the sentence for people an answer carries as `message` when the refusal says
 *   nothing more precise (`new ApiError(code, { message })` does: a found id, a route);
 * - `headers`: what every answer with this code carries (`Retry-After` of the 503s that pass);
 * - `example`: the fields of the code's OpenAPI example besides `error`, `message` and
 *   `request_id`. Its `message` is given only for a code whose every refusal says a sentence
 *   of its own, and is then one the service sends (test/core/error-table.test.ts provokes each
 *   code and compares).
 *
 * Rows are in the order of their status: the order of the `ErrorCode` enum in the OpenAPI
 * documents. `bad_request`, `request_timeout` and `headers_too_large` are the hosts' refusals
 * of a request the router never sees (docs/decisions.md §9): they share the table so every
 * answer has one shape. Imports nothing: core's ground floor (docs/architecture.md, "Layering").
 */

export interface ErrorRow {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly example?: Readonly<Record<string, unknown>>;
}

/** Seconds a client waits before retrying a 503 that passes (a full pool, a lost connection, readiness). */
const RETRY_SOON = { 'retry-after': '5' } as const;

export const ERRORS = {
  bad_request: { status: 400, message: 'malformed HTTP request' },
  invalid_query: {
    status: 400,
    message: 'A query parameter is unknown or has an invalid value; see details.',
    example: { details: [{ path: 'limit', message: 'must be at most 100' }] },
  },
  invalid_facet: {
    status: 400,
    message: 'A facet name is not one of genre, style, format, country, year_from, year_to, label; see details.',
    example: { details: [{ path: 'facets', message: 'not a facet name', raw: 'colour', normalized: 'colour' }] },
  },
  invalid_master_id: {
    status: 400,
    message: 'A master id is a positive integer of at most 2,000,000,000, written without leading zeros.',
    example: { details: [{ path: 'id', message: 'must be written without leading zeros' }] },
  },
  invalid_batch_size: {
    status: 400,
    message: 'The batch body must be JSON with a non-empty ids array within your tier’s batch limit.',
    example: { max_ids: 100 },
  },
  invalid_body: {
    status: 400,
    message: 'The request body is malformed; see details.',
    example: { details: [{ path: 'email', message: 'must be an e-mail address' }] },
  },
  invalid_signature: { status: 400, message: 'the Stripe-Signature header does not match the body' },
  missing_api_key: { status: 401, message: 'send your key in the X-API-Key header' },
  invalid_api_key: { status: 401, message: 'the key is not a valid active key' },
  revoked_api_key: { status: 401, message: 'this key was rotated or revoked' },
  invalid_beacon_token: {
    status: 401,
    message: 'the beacon token is not valid or has expired',
    headers: { 'www-authenticate': 'Bearer realm="search-events"' },
  },
  unauthorized: { status: 401, message: 'sign in to the dashboard first' },
  payment_required: { status: 402, message: 'the account has an unpaid invoice; pay it to restore access' },
  not_found: { status: 404, message: 'Not found.', example: { message: 'artist not found' } },
  route_not_found: { status: 404, message: 'No route has this path.' },
  master_not_found: { status: 404, message: 'No master has this id.', example: { message: 'no master with id 999', master_id: 999 } },
  method_not_allowed: { status: 405, message: 'This path does not accept this method; see allow.', example: { allow: ['GET'] } },
  request_timeout: { status: 408, message: 'the request did not arrive in time' },
  gone: {
    status: 410,
    message: 'This route was retired; see successor.',
    example: {
      message: 'GET /api/v1/masters/{id} was retired at the v1 sunset (2026-09-01T00:00:00.000Z).',
      where: 'the discography facet of GET /api/v2/artist/{cluster_id}',
      successor: 'https://catalogue.example.org/api/v2/resolve?discogs=master/113',
    },
  },
  payload_too_large: { status: 413, message: 'The request body is too large; see max_bytes.', example: { max_bytes: 32768 } },
  unsupported_media_type: {
    status: 415,
    message: 'send the body as application/json',
    example: { details: [{ path: 'Content-Type', message: 'must be application/json' }] },
  },
  rate_limited: {
    status: 429,
    message: 'A rate limit was exceeded; retry after retry_after_seconds.',
    example: { retry_after_seconds: 12, reason: 'burst' },
  },
  headers_too_large: { status: 431, message: 'request line and headers over the server’s limit' },
  internal: { status: 500, message: 'An unexpected error; cite request_id to support.' },
  billing_unavailable: { status: 503, message: 'Stripe is not configured on this server' },
  pool_exhausted: { status: 503, message: 'The service is at capacity; retry after 5 seconds.', headers: RETRY_SOON },
  database_unavailable: { status: 503, message: 'the database connection was lost; retry shortly', headers: RETRY_SOON },
  not_ready: { status: 503, message: 'The service is not ready to serve; see details.', headers: RETRY_SOON, example: { message: 'not ready: database' } },
  request_aborted: { status: 504, message: 'The request ran out of time or the client went away.' },
  query_timeout: { status: 504, message: 'The query took too long; narrow it.' },
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof ERRORS;
