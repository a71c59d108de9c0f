/**
 * A handler's Reply as it goes out (representation.ts): Cache-Control, the strong ETag and its
 * 304, and gzip for bodies of 1 KB and more when the client asks, the ETag marking the coding.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pureHasher } from '../defaults.js';
import { COMPRESS_MIN_BYTES } from './compression.js';
import { etagOf } from './conditional.js';
import { Reply } from './json.js';
import { type CachePolicy, cachePolicy, represent } from './representation.js';
import { RequestEvent, type ServiceScope } from './request-event.js';

const HOUR = cachePolicy(3600);
const big = JSON.stringify({ hits: 'x'.repeat(COMPRESS_MIN_BYTES) });
const small = '{"ok":true}';
const get = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://x.test/api/v1/masters/1', { method, headers });

/** Representation reads the request off the event and writes the answer's headers there; nothing of the service's scope. */
const eventOf = (request: Request, headers: Record<string, string> = {}) => new RequestEvent(request, 'req_test', undefined, {} as ServiceScope, headers);

/** `null`: a route without a cache policy. `extra`: the headers the representation wrote. */
function run(reply: Reply, request: Request, cache: CachePolicy | null = HOUR) {
  const event = eventOf(request);
  const out = represent(reply, event, cache ?? undefined, pureHasher);
  return { out, extra: event.responseHeaders };
}

describe('cachePolicy', () => {
  it('private, max-age', () => {
    expect(cachePolicy(300)).toEqual({ maxAgeSeconds: 300, cacheControl: 'private, max-age=300' });
  });
});

describe('represent', () => {
  it('a cacheable 200: its Cache-Control and the digest of its body as a strong ETag, the reply unchanged', () => {
    const reply = new Reply(200, small, { 'content-type': 'application/json' });
    const { out, extra } = run(reply, get());
    expect(out).toBe(reply);
    expect(extra).toEqual({ 'cache-control': 'private, max-age=3600', etag: etagOf(small, pureHasher) });
    expect(extra.etag).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('a route without a cache policy, or an answer other than a 200, is no-store with no ETag', () => {
    expect(run(new Reply(200, small, {}), get(), null).extra).toEqual({ 'cache-control': 'no-store' });
    expect(run(new Reply(404, small, {}), get()).extra).toEqual({ 'cache-control': 'no-store' });
    expect(run(new Reply(201, small, {}), get()).extra).toEqual({ 'cache-control': 'no-store' });
    // Bytes the handler assembled are not digested here.
    expect(run(new Reply(200, new TextEncoder().encode(small), {}), get()).extra).toEqual({ 'cache-control': 'no-store' });
  });

  it('keeps a Cache-Control the reply set itself', () => {
    expect(run(new Reply(200, small, { 'cache-control': 'max-age=5' }), get(), null).extra).toEqual({});
    expect(run(new Reply(500, small, { 'cache-control': 'no-cache' }), get()).extra).toEqual({});
  });

  it('uses the ETag the handler already knows', () => {
    expect(run(new Reply(200, small, {}, '"known"'), get()).extra.etag).toBe('"known"');
  });

  it('304 with no body when If-None-Match names the ETag (or *), the headers still set', () => {
    const etag = etagOf(small, pureHasher);
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const { out, extra } = run(new Reply(200, small, { 'x-a': '1' }), get({ 'if-none-match': condition }));
      expect([out.status, out.body, out.headers], condition).toEqual([304, null, {}]);
      expect(extra).toEqual({ 'cache-control': 'private, max-age=3600', etag });
    }
    expect(run(new Reply(200, small, {}), get({ 'if-none-match': '"other"' })).out.status).toBe(200);
    // Not on a route without a cache policy.
    expect(run(new Reply(200, small, {}), get({ 'if-none-match': '*' }), null).out.status).toBe(200);
  });

  it('a small answer goes out as it is, with no Vary', () => {
    const reply = new Reply(200, small, {});
    const { out, extra } = run(reply, get({ 'accept-encoding': 'gzip' }));
    expect(out).toBe(reply);
    expect(extra.vary).toBeUndefined();
    expect(extra['content-encoding']).toBeUndefined();
    const almost = 'x'.repeat(COMPRESS_MIN_BYTES - 1);
    expect(run(new Reply(200, almost, {}), get({ 'accept-encoding': 'gzip' })).extra['content-encoding']).toBeUndefined();
  });

  it('1 KB and more: Vary: Accept-Encoding, and identity unless the client asks for a coding', () => {
    const reply = new Reply(200, big, {});
    const plain = run(reply, get());
    expect(plain.out).toBe(reply);
    expect(plain.extra).toEqual({ 'cache-control': 'private, max-age=3600', vary: 'accept-encoding', etag: etagOf(big, pureHasher) });
    expect(run(reply, get({ 'accept-encoding': 'identity' })).out).toBe(reply);
    const exact = 'x'.repeat(COMPRESS_MIN_BYTES);
    expect(run(new Reply(200, exact, {}), get({ 'accept-encoding': 'gzip' })).extra['content-encoding']).toBe('gzip');
  });

  it('gzip when asked: the compressed body, the coding named, the ETag marked with it', async () => {
    const reply = new Reply(200, big, { 'content-type': 'application/json' });
    const { out, extra } = run(reply, get({ 'accept-encoding': 'gzip' }));
    expect(out).not.toBe(reply);
    expect([out.status, out.headers]).toEqual([200, { 'content-type': 'application/json' }]);
    expect(extra).toEqual({
      'cache-control': 'private, max-age=3600',
      vary: 'accept-encoding',
      'content-encoding': 'gzip',
      etag: `${etagOf(big, pureHasher).slice(0, -1)}-gzip"`,
    });
    const bytes = new Uint8Array(await new Response(out.body as ReadableStream<Uint8Array>).arrayBuffer());
    expect(gunzipSync(bytes).toString('utf8')).toBe(big);
    // The compressed representation's tag still matches its identity tag's 304.
    expect(run(reply, get({ 'accept-encoding': 'gzip', 'if-none-match': extra.etag as string })).out.status).toBe(304);
  });

  it('compresses bytes too, and an uncacheable answer, without an ETag', async () => {
    const bytes = new TextEncoder().encode(big);
    const { out, extra } = run(new Reply(200, bytes, {}), get({ 'accept-encoding': 'gzip' }), null);
    expect(extra).toEqual({ 'cache-control': 'no-store', vary: 'accept-encoding', 'content-encoding': 'gzip' });
    expect(gunzipSync(new Uint8Array(await new Response(out.body as ReadableStream<Uint8Array>).arrayBuffer())).toString('utf8')).toBe(big);
  });

  it('HEAD announces the coding but makes no body', () => {
    const reply = new Reply(200, big, {});
    const { out, extra } = run(reply, get({ 'accept-encoding': 'gzip' }, 'HEAD'));
    expect(out).toBe(reply);
    expect(extra['content-encoding']).toBe('gzip');
  });

  it('adds Accept-Encoding to a Vary already set, once', () => {
    const event = eventOf(get(), { vary: 'origin' });
    represent(new Reply(200, big, {}), event, HOUR, pureHasher);
    expect(event.responseHeaders.vary).toBe('origin, accept-encoding');
  });
});
