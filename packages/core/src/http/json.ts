const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer; the pipeline appends request id and rate-limit headers. Plain-object headers: no Headers allocation. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: headers ? { 'content-type': JSON_TYPE, ...headers } : { 'content-type': JSON_TYPE } });
}

export function html(body: string, status = 200, headers?: Record<string, string>): Response {
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
}
