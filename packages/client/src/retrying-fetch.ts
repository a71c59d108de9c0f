/**
 * A `fetch` that follows the specification's retry guidance (retry-policy.ts), follows 308s
 * itself (so the cutover's redirect works with any `fetch`, and its Deprecation/Sunset headers
 * are seen before they are left behind), and reports deprecation notices. The clock, the sleep
 * and the jitter are injectable, so tests walk the backoff without waiting.
 */
import { type DeprecationNotice, deprecationOf } from './deprecation.js';
import { retryDelayMs } from './retry-policy.js';

export interface RetryOptions {
  /** The fetch to wrap (default: globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait (default: setTimeout). */
  sleep?: (ms: number) => Promise<void>;
  /** The jitter source, in [0, 1) (default: Math.random). */
  random?: () => number;
  /** Epoch ms now, for a Retry-After date (default: Date.now). */
  now?: () => number;
  /** The most retries one call makes (default 6: 1, 2, 4, 8, 16 and 32 s at most, about a minute). */
  maxRetries?: number;
  /** The most 308s one call follows (default 5). */
  maxRedirects?: number;
  /** Called for every answer that carries Deprecation or Sunset (default: one console.warn per URL). */
  onDeprecation?: (notice: DeprecationNotice) => void;
  /** Called before each retry's wait. */
  onRetry?: (retry: { url: string; status: number; retry: number; delayMs: number }) => void;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function warnOncePerUrl(): (notice: DeprecationNotice) => void {
  const warned = new Set<string>();
  return (notice) => {
    const key = notice.url.split('?')[0] as string;
    if (warned.has(key)) return;
    warned.add(key);
    const when = notice.sunset ? ` (sunset ${notice.sunset.toISOString()})` : '';
    console.warn(`catalogue: ${key} is deprecated${when}${notice.successor ? `; use ${notice.successor}` : ''}`);
  };
}

export function createRetryingFetch(options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const maxRetries = options.maxRetries ?? 6;
  const maxRedirects = options.maxRedirects ?? 5;
  const onDeprecation = options.onDeprecation ?? warnOncePerUrl();

  return async (request) => {
    let current = request;
    let retries = 0;
    let internalRetries = 0;
    let redirects = 0;
    for (;;) {
      // A clone per attempt keeps the body for the next one.
      let response = await send(new Request(current.clone(), { redirect: 'manual' }));
      if (response.type === 'opaqueredirect') {
        // A browser hides a manual redirect's Location: let it follow the 308 itself.
        response = await send(new Request(current.clone(), { redirect: 'follow' }));
      }
      const notice = deprecationOf(response, current.url);
      if (notice) onDeprecation(notice);
      const location = response.headers.get('location');
      if (response.status === 308 && location && redirects < maxRedirects) {
        // 308 keeps the method and the body (RFC 9110 §15.4.9): the same request, elsewhere.
        await response.body?.cancel();
        current = new Request(new URL(location, current.url), current);
        redirects++;
        continue;
      }
      const delayMs = retryDelayMs({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        retries,
        internalRetries,
        maxRetries,
        random: random(),
        now: now(),
      });
      if (delayMs === null) return response;
      await response.body?.cancel();
      options.onRetry?.({ url: current.url, status: response.status, retry: retries + 1, delayMs });
      await sleep(delayMs);
      retries++;
      if (response.status === 500) internalRetries++;
    }
  };
}
