import { ERROR_MESSAGES } from './error-messages.js';

/**
 * Every refusal the service makes is an ApiError; `errorResponse` is the one place that turns
 * it into the spec's body `{error, details?, ...}` with `Cache-Control: no-store`. Every body
 * also carries `message` (the refusal's own, else the code's sentence, error-messages.ts) and
 * `request_id` (issue 16 item 5), beside the spec's fields, which stay as they were.
 *
 * `bad_request`, `request_timeout` and `headers_too_large` are the hosts' own refusals of a
 * request the router never sees (a malformed Host, a request line or headers the HTTP parser
 * refuses, a request that never finished arriving): they share the codes so every answer has
 * the same shape (docs/decisions.md §9).
 */
export type ErrorCode =
  | 'bad_request'
  | 'invalid_query'
  | 'invalid_facet'
  | 'invalid_master_id'
  | 'invalid_batch_size'
  | 'invalid_body'
  | 'invalid_signature'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'revoked_api_key'
  | 'invalid_beacon_token'
  | 'unauthorized'
  | 'payment_required'
  | 'not_found'
  | 'route_not_found'
  | 'master_not_found'
  | 'method_not_allowed'
  | 'gone'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'headers_too_large'
  | 'internal'
  | 'billing_unavailable'
  | 'pool_exhausted'
  | 'database_unavailable'
  | 'not_ready'
  | 'request_aborted'
  | 'query_timeout';

export interface IssueDetail {
  path: string;
  message: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    /** Extra top-level body fields, e.g. `details`, `master_id`, `retry_after_seconds`. */
    readonly body: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export function invalidQuery(details: IssueDetail[]): ApiError {
  return new ApiError(400, 'invalid_query', { details });
}

export function invalidBody(details: IssueDetail[]): ApiError {
  return new ApiError(400, 'invalid_body', { details });
}

export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', { message: `${what} not found` });
}

/** Typed here, so a code without its sentence in error-messages.ts fails the type check. */
const MESSAGES: Record<ErrorCode, string> = ERROR_MESSAGES;

export function errorResponse(error: ApiError, requestId: string, extra?: Record<string, string> | null): Response {
  const headers: Record<string, string> = {
    ...error.headers,
    ...extra,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': requestId,
  };
  const body = { error: error.code, message: MESSAGES[error.code], ...error.body, request_id: requestId };
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
