const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON 2xx answer; headers are appended by the pipeline (request id, limits, deprecation). */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const h = new Headers(headers);
  h.set('content-type', JSON_TYPE);
  return new Response(JSON.stringify(body), { status, headers: h });
}

export function html(body: string, status = 200, headers?: Record<string, string>): Response {
  const h = new Headers(headers);
  h.set('content-type', 'text/html; charset=utf-8');
  return new Response(body, { status, headers: h });
}
