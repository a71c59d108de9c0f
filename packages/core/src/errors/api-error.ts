/**
 * Every refusal the service makes is an ApiError of a code of the error table (codes.ts), which
 * gives its status, its sentence and the headers it always carries; the refusal adds what only
 * it knows (a found id, the `details` of a validation, a computed `Retry-After`).
 * `errorResponse` is the one place that turns it into the spec's body `{error, details?, ...}`
 * with `Cache-Control: no-store`. Every body also carries `message` (the refusal's own, else the
 * code's sentence) and `request_id` (issue 16 item 5), beside the spec's fields, which stay as
 * they were.
 */
import { ERRORS, type ErrorCode, type ErrorRow } from './codes.js';

export type { ErrorCode } from './codes.js';

export interface IssueDetail {
  path: string;
  message: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  /** The row's headers, then the refusal's own (a refusal's value wins). */
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    /** Extra top-level body fields, e.g. `details`, `master_id`, `retry_after_seconds`; `message` replaces the code's sentence. */
    readonly body: Record<string, unknown> = {},
    headers?: Record<string, string>,
  ) {
    super(code);
    this.name = 'ApiError';
    const row: ErrorRow = ERRORS[code];
    this.status = row.status;
    this.headers = { ...row.headers, ...headers };
  }

  /** The sentence for people its answer carries as `message`: the refusal's own, else the code's. */
  get publicMessage(): string {
    return typeof this.body.message === 'string' ? this.body.message : ERRORS[this.code].message;
  }
}

export function invalidQuery(details: IssueDetail[]): ApiError {
  return new ApiError('invalid_query', { details });
}

export function invalidBody(details: IssueDetail[]): ApiError {
  return new ApiError('invalid_body', { details });
}

export function notFound(what: string): ApiError {
  return new ApiError('not_found', { message: `${what} not found` });
}

export function errorResponse(error: ApiError, requestId: string, extra?: Readonly<Record<string, string>> | null): Response {
  const headers: Record<string, string> = {
    ...error.headers,
    ...extra,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': requestId,
  };
  const body = { error: error.code, message: ERRORS[error.code].message, ...error.body, request_id: requestId };
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
