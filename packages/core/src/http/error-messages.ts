/**
 * The sentence every error body carries as `message` when the refusal did not say something more
 * precise (issue 16 item 5; docs/decisions.md §6): a client that shows `message` to a person
 * never has to map codes itself. The code stays the machine-readable part. api-error.ts checks
 * that every ErrorCode has its sentence (no import back from here: no cycle).
 */
export const ERROR_MESSAGES = {
  bad_request: 'The request is malformed.',
  invalid_query: 'A query parameter is unknown or has an invalid value; see details.',
  invalid_facet: 'A facet name is not one of genre, style, format, country, year_from, year_to, label; see details.',
  invalid_master_id: 'A master id is a positive integer of at most 2,000,000,000, written without leading zeros.',
  invalid_batch_size: 'The batch body must be JSON with a non-empty ids array within your tier’s batch limit.',
  invalid_body: 'The request body is malformed; see details.',
  invalid_signature: 'The webhook signature does not verify.',
  missing_api_key: 'Send your API key in the X-API-Key header.',
  invalid_api_key: 'The API key is not valid.',
  revoked_api_key: 'The API key was revoked or rotated; use its replacement.',
  invalid_beacon_token: 'The beacon token is invalid or expired.',
  unauthorized: 'The credentials are missing or wrong.',
  payment_required: 'The account has an unpaid invoice; update the payment method in the dashboard.',
  not_found: 'Not found.',
  route_not_found: 'No route has this path.',
  master_not_found: 'No master has this id.',
  method_not_allowed: 'This path does not accept this method; see allow.',
  gone: 'This route was retired; see successor.',
  request_timeout: 'The request did not arrive in time.',
  payload_too_large: 'The request body is too large; see max_bytes.',
  unsupported_media_type: 'The request body has an unsupported content type.',
  rate_limited: 'A rate limit was exceeded; retry after retry_after_seconds.',
  headers_too_large: 'The request line and headers are too large.',
  internal: 'An unexpected error; cite request_id to support.',
  billing_unavailable: 'Billing is not configured on this deployment.',
  pool_exhausted: 'The service is at capacity; retry after 5 seconds.',
  database_unavailable: 'The database is unavailable; retry after 5 seconds.',
  not_ready: 'The service is not ready to serve; see details.',
  request_aborted: 'The request ran out of time or the client went away.',
  query_timeout: 'The query took too long; narrow it.',
} as const;
