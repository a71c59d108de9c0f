/**
 * The representation of a handler's Reply (docs/decisions.md §6, "Caching" and "Compression"):
 * its Cache-Control, its strong ETag and the 304 for a matching If-None-Match on a cacheable
 * route, and its content coding. Headers are written on the request's event (its `respond`
 * copies the Reply's own beneath them), so a Reply's header object is never changed.
 *
 * The hot path of a request without Accept-Encoding or If-None-Match: one header lookup each,
 * and on a cacheable 200 the digest of its body for the ETag.
 */
import type { Hasher } from '../ports/index.js';
import { COMPRESS_MIN_BYTES, type Coding, compressedBody, negotiateCoding } from './compression.js';
import { codedEtag, etagOf, ifNoneMatchMatches } from './conditional.js';
import { Reply } from './json.js';

/** How long a client may reuse a route's 200 without asking again (RouteDef.cache). */
export interface CachePolicy {
  maxAgeSeconds: number;
  /** `private, max-age=<maxAgeSeconds>`, made once (cachePolicy()). */
  cacheControl: string;
}

/** What representation reads and writes of a request's event (http/request-event.ts): the request, and the answer's headers. */
export interface Represented {
  readonly request: Request;
  header(name: string, value: string): void;
  vary(name: string): void;
}

export function cachePolicy(maxAgeSeconds: number): CachePolicy {
  return { maxAgeSeconds, cacheControl: `private, max-age=${maxAgeSeconds}` };
}

export function represent(reply: Reply, event: Represented, cache: CachePolicy | undefined, hasher: Hasher): Reply {
  const { request } = event;
  const body = reply.body;
  const cacheable = cache !== undefined && reply.status === 200 && typeof body === 'string';
  if (cacheable) event.header('cache-control', cache.cacheControl);
  // Usage, account and admin answers (every route without a cache policy) are never stored.
  else if (!('cache-control' in reply.headers)) event.header('cache-control', 'no-store');

  let coding: Coding | null = null;
  const size = typeof body === 'string' ? body.length : body instanceof Uint8Array ? body.byteLength : 0;
  if (size >= COMPRESS_MIN_BYTES) {
    event.vary('accept-encoding');
    const accepted = request.headers.get('accept-encoding');
    if (accepted) coding = negotiateCoding(accepted);
  }
  if (cacheable) {
    const etag = reply.etag ?? etagOf(body, hasher);
    event.header('etag', codedEtag(etag, coding));
    const condition = request.headers.get('if-none-match');
    // 304: the headers a 200 would have (ETag, Cache-Control, Vary), no body (RFC 9110 §15.4.5).
    if (condition !== null && ifNoneMatchMatches(condition, etag)) return new Reply(304, null, {});
  }
  if (coding === null) return reply;
  event.header('content-encoding', coding);
  // HEAD announces the coding a GET would get; the event's respond() drops the body, so none is made.
  if (request.method === 'HEAD') return reply;
  return new Reply(reply.status, compressedBody(body as string | Uint8Array<ArrayBuffer>, coding), reply.headers);
}
