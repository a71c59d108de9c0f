/**
 * A refusal a host answers itself, before the service sees the request (body cap, malformed
 * Host): the spec's error body with Content-Type, `Cache-Control: no-store` and an
 * `X-Request-Id` of the same form as the service's own (docs/decisions.md §6), and `Connection:
 * close`, since the rest of the request is never read and the connection cannot be reused.
 */
import { type ApiError, errorResponse, newRequestId } from '@catalogue/core';

export function hostRefusal(error: ApiError): Response {
  return errorResponse(error, newRequestId(), { connection: 'close' });
}
