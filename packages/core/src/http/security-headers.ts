/**
 * Headers of browser hardening (issue 30, 5). Every answer carries `X-Content-Type-Options:
 * nosniff` (JSON and errors too: a browser never reads an answer as another type), and under an
 * https BASE_URL `Strict-Transport-Security`, so a browser that met the service once never
 * speaks plain http to it again. `includeSubDomains` is left out: BASE_URL's host says nothing of
 * its siblings. HTML documents add `documentHeaders` (web/page-layout.ts).
 */

/** One year, the figure browsers' preload lists ask for. */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The headers every answer carries, by BASE_URL: nosniff, and HSTS when BASE_URL is https. */
export function securityHeaders(baseUrl: string): Readonly<Record<string, string>> {
  const https = baseUrl.toLowerCase().startsWith('https:');
  return Object.freeze({
    'x-content-type-options': 'nosniff',
    ...(https ? { 'strict-transport-security': `max-age=${HSTS_MAX_AGE_SECONDS}` } : {}),
  });
}

/**
 * An HTML document: never framed (`frame-ancestors 'none'`, and `X-Frame-Options` for browsers
 * before CSP 2), nothing loaded but from this origin, and no script but `scriptSrc` (the page's
 * own, by its hash: `'sha256-…'`; none by default).
 */
export function documentHeaders(scriptSrc = "'none'"): Record<string, string> {
  return {
    'x-frame-options': 'DENY',
    'content-security-policy': `default-src 'self'; style-src 'unsafe-inline'; script-src ${scriptSrc}; frame-ancestors 'none'`,
  };
}
