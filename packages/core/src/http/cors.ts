/**
 * CORS for browser apps (docs/decisions.md §6, "CORS"): `CORS_ORIGINS` lists the origins whose
 * pages may call the API (or `*`); by default none, and then nothing here runs.
 *
 * The API authenticates with the X-API-Key header, never a cookie, so no answer carries
 * `Access-Control-Allow-Credentials`: a page can use only the key it holds, and the dashboard's
 * cookie routes stay same-origin. An allowed origin is echoed (`*` when the list is `*`), with
 * `Vary: Origin` when the answer depends on it, and the headers a client needs are exposed.
 */
import type { RequestEvent } from './request-event.js';

/** Headers a browser page may read besides the safelisted ones: limits, request id, validators, cutover. */
export const EXPOSED_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'x-search-latency-ms',
  'etag',
  'deprecation',
  'sunset',
  'link',
  'location',
].join(', ');

/** Request headers a page may send: the key, a JSON body, the admin/beacon bearer, a validator. */
export const ALLOWED_HEADERS = 'x-api-key, content-type, authorization, if-none-match';

/** How long a browser may keep a preflight's answer (Chromium caps it at 7,200). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

export interface CorsPolicy {
  /** True when every origin may call (`CORS_ORIGINS=*`). */
  any: boolean;
  origins: ReadonlySet<string>;
}

/** The policy of a CORS_ORIGINS list, or null when it allows no origin (the default). */
export function corsPolicyOf(origins: readonly string[] | null | undefined): CorsPolicy | null {
  if (!origins || origins.length === 0) return null;
  return { any: origins.includes('*'), origins: new Set(origins) };
}

/**
 * The CORS headers of the answer to `event`'s request (its Origin; none: not a CORS request),
 * written on the event, and `event.corsAllowed` when the origin is allowed. `null` (the opaque
 * origin of sandboxed frames and file: pages) is allowed only by `*`: CORS_ORIGINS cannot name
 * it (host-kit env.ts refuses).
 */
export function addCorsHeaders(policy: CorsPolicy, event: RequestEvent): void {
  if (!policy.any) event.vary('origin');
  const origin = event.request.headers.get('origin');
  if (origin === null) return;
  if (!policy.any && !policy.origins.has(origin)) return;
  event.header('access-control-allow-origin', policy.any ? '*' : origin);
  event.header('access-control-expose-headers', EXPOSED_HEADERS);
  event.corsAllowed = true;
}

/** A preflight's own headers (the origin's were added by addCorsHeaders): methods, headers, max age. */
export function preflightHeaders(allow: string, event: RequestEvent): void {
  event.header('access-control-allow-methods', allow);
  event.header('access-control-allow-headers', ALLOWED_HEADERS);
  event.header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS));
}
