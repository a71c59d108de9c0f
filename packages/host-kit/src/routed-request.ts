/**
 * For runtimes that hand the handler a URL they built themselves around the Host header (Bun,
 * Deno): the request as the service should see it, its URL rebuilt by the one rule of
 * request-url.ts from the path the runtime parsed — or the 400 to answer instead.
 *
 * Bun builds `http://<Host><target>` when it can parse it and leaves the bare target otherwise;
 * Deno concatenates the raw Host and target unchecked. Once the Host is validated (no `/`, `?`
 * or `#` in it), the first of those after the runtime's authority starts the target.
 */
import type { ApiError } from '@catalogue/core';
import { requestUrl } from './request-url.js';

export function routedRequest(request: Request, publicOrigin: string | null, fallbackHost: string): Request | ApiError {
  const url = requestUrl(
    { target: request.url, host: request.headers.get('host'), scheme: request.url.startsWith('https:') ? 'https' : 'http', fallbackHost },
    publicOrigin,
  );
  if (typeof url !== 'string') return url;
  // The common case (Host as the runtime wrote it, no BASE_URL) keeps the runtime's own Request.
  if (url === request.url) return request;
  return new Request(url, { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit);
}
