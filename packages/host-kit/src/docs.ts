/**
 * The public API reference at /docs, on every host that runs runHost (Node, Bun, Deno; issue 30
 * item 9): Swagger UI's standalone bundle from the `swagger-ui-dist`
 * package (installed from npm, served from this host; no CDN), pointed at /api/v1/openapi.json
 * with /api/v2/openapi.json one click away. Everything else goes to the core, including the
 * migration guide at /docs/migration. The page's own script is a file too, so a strict
 * Content-Security-Policy (`script-src 'self'`) holds.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ApiError, errorResponse, newRequestId, type RequestContextInput, type Service, securityHeaders } from '@catalogue/core';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '/api/v1/openapi.json', name: 'v1' },
      { url: '/api/v2/openapi.json', name: 'v2' }
    ],
    'urls.primaryName': 'v1',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout'
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Music Catalogue Data Service: API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<p style="font:14px system-ui,sans-serif;margin:.5rem 1rem">Moving from v1? Read the <a href="/docs/migration">migration guide</a>.</p>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

/** The dashboard pages' hardening (issue 30, 5): never framed, not sniffed; Swagger UI's scripts and styles are files of this origin. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

const NOSNIFF = { 'x-content-type-options': 'nosniff' };

/** Where npm installed `swagger-ui-dist` (Node, Bun and Deno resolve it alike from node_modules). */
function swaggerUiDist(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** An absolute URL whose path is /docs or under it. */
const DOCS_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/docs(?:[/?#]|$)/i;

export type DocsHandler = (request: Request) => Response | null;

/** Answers /docs and /docs/assets/*; null for every other request. Assets are read once, lazily. */
export function createDocsHandler(distDir = swaggerUiDist()): DocsHandler {
  const cache = new Map<string, Uint8Array>();
  const asset = (name: string) => {
    let bytes = cache.get(name);
    if (!bytes) {
      bytes = new Uint8Array(readFileSync(join(distDir, name)));
      cache.set(name, bytes);
    }
    return bytes;
  };
  return (request) => {
    // Every request passes here first: only a /docs path is parsed as a URL (issue 14).
    if (!DOCS_PATH.test(request.url)) return null;
    const { pathname } = new URL(request.url);
    if (pathname !== '/docs' && pathname !== '/docs/' && !pathname.startsWith('/docs/assets/')) return null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorResponse(new ApiError('method_not_allowed', { allow: ['GET', 'HEAD'] }, { allow: 'GET, HEAD' }), newRequestId(), { ...NOSNIFF });
    }
    const body = (content: BodyInit) => (request.method === 'HEAD' ? null : content);
    if (pathname === '/docs' || pathname === '/docs/') {
      return new Response(body(PAGE), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY_HEADERS } });
    }
    const name = pathname.slice('/docs/assets/'.length);
    if (name === 'init.js')
      return new Response(body(INIT_JS), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY_HEADERS } });
    const type = ASSETS[name];
    if (!type) return errorResponse(new ApiError('route_not_found'), newRequestId(), { ...NOSNIFF });
    return new Response(body(asset(name) as BodyInit), { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400', ...SECURITY_HEADERS } });
  };
}

/** An absolute URL whose path is `/` (any query). */
const ROOT_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/?(?:[?#]|$)/i;

/**
 * `GET /` (and HEAD): 302 to the reference for a browser (Accept names text/html), to the JSON
 * root index `/api/v1` for any other client; the service has no resource at `/` itself (issue 30
 * item 13, docs/decisions.md §3). null for every other request.
 */
export function rootRedirect(request: Request): Response | null {
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !ROOT_PATH.test(request.url)) return null;
  const browser = /\btext\/html\b/i.test(request.headers.get('accept') ?? '');
  return new Response(null, { status: 302, headers: { location: browser ? '/docs' : '/api/v1', vary: 'Accept', 'cache-control': 'no-cache' } });
}

/** The service with the reference page (and the redirect from `/` to it) in front of it. */
export function withDocs(service: Service, docs: DocsHandler = createDocsHandler()): Service {
  // HSTS under an https BASE_URL, as the service's own answers carry it.
  const transport = securityHeaders(service.config.baseUrl)['strict-transport-security'];
  return {
    ...service,
    fetch: (request: Request, context?: RequestContextInput) => {
      const page = docs(request) ?? rootRedirect(request);
      if (page && transport) page.headers.set('strict-transport-security', transport);
      return page ? Promise.resolve(page) : service.fetch(request, context);
    },
  };
}
