/**
 * Compression, ETags / 304 and CORS through createService (docs/decisions.md §6, "Caching",
 * "Compression", "CORS"), and the attacks on them: malformed If-None-Match, q=0, Origin null,
 * huge headers. The same behaviour through real hosts is in test/hosts/representation.test.ts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

const gunzip = async (res: Response) => new Response(res.body?.pipeThrough(new DecompressionStream('gzip'))).text();

describe('compression on Accept-Encoding', () => {
  it('gzips a large answer for a client that accepts it, with Vary; identity otherwise', async () => {
    const t = setup();
    const plain = await t.fetch('/api/v1/openapi.json');
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    const zipped = await t.fetch('/api/v1/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await gunzip(zipped)).toBe(text);
  });

  it('a small answer is sent as it is, without Vary: Accept-Encoding', async () => {
    const t = setup();
    const res = await t.fetch('/api/v1/tastemakers/ones-to-watch?limit=1', {
      headers: { 'x-api-key': await t.issueKey(), 'accept-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary') ?? '').not.toMatch(/accept-encoding/i);
    // On the fixture this answer is under 1 KB (asserted: the test is about a small answer).
    const body = await res.text();
    expect(body.length).toBeLessThan(1024);
    expect(JSON.parse(body)).toMatchObject({ as_of: expect.any(String), items: [] });
  });

  it.each([
    ['gzip;q=0', null],
    ['gzip;q=0, *;q=0', null],
    ['*;q=0', null],
    ['identity', null],
    ['gzip;q=abc', null],
    ['gzip;q=1.5', null],
    ['GZIP;Q=0.5', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'gzip'],
    ['br;q=1, gzip;q=0.5', 'gzip'],
    [',,;;,=,', null],
    [`${'a'.repeat(5000)}, gzip`, null],
  ])('Accept-Encoding %# → %s (Node has no br in CompressionStream)', async (accept, coding) => {
    const t = setup();
    const res = await t.fetch('/api/v1/openapi.json', { headers: { 'accept-encoding': accept } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(coding);
    const body = coding ? await gunzip(res) : await res.text();
    expect(JSON.parse(body)).toMatchObject({ openapi: '3.1.0' });
  });

  it('HEAD announces the coding without a body', async () => {
    const t = setup();
    const res = await t.fetch('/api/v1/openapi.json', { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe('');
  });
});

describe('ETag, 304 and Cache-Control', () => {
  it('a catalogue read has a strong ETag and private max-age; the same ETag answers 304 with no body, and the 304 counts as a call', async () => {
    const t = setup();
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const first = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=3600');
    const again = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
    expect(again.headers.get('etag')).toBe(etag);

    const notModified = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key, 'if-none-match': etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect(notModified.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(notModified.headers.get('x-ratelimit-remaining')).toBe('57');
    // docs/decisions.md §2: a 304 is an admitted call (the gate ran before the validator could be compared).
    const usage = await (await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).json();
    expect(usage.calls).toBe(3);
  });

  it('a record ETag, digested once per record, is the digest of each answer own bytes (base URL included)', async () => {
    const digest = (text: string) => `"${createHash('sha256').update(text).digest('hex').slice(0, 32)}"`;
    for (const baseUrl of ['http://one.test', 'https://two.test']) {
      const t = setup({ config: { baseUrl } });
      const key = await t.issueKey();
      for (let i = 0; i < 2; i++) {
        const res = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
        expect(res.status).toBe(200);
        expect(res.headers.get('etag')).toBe(digest(await res.text()));
      }
    }
  });

  it('a gzip representation has its own tag, and either tag of the same bytes answers 304', async () => {
    const t = setup();
    const plain = await t.fetch('/api/v1/openapi.json');
    const etag = plain.headers.get('etag') as string;
    const zipped = await t.fetch('/api/v1/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('etag')).toBe(`${etag.slice(0, -1)}-gzip"`);
    const both = { 'accept-encoding': 'gzip', 'if-none-match': etag };
    const res = await t.fetch('/api/v1/openapi.json', { headers: both });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(zipped.headers.get('etag'));
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect((await t.fetch('/api/v1/openapi.json', { headers: { 'if-none-match': zipped.headers.get('etag') as string } })).status).toBe(304);
  });

  it.each([
    ['W/ weak form of the tag', (e: string) => `W/${e}`, 304],
    ['the tag in a list', (e: string) => `"x", ${e}, "y"`, 304],
    ['*', () => '*', 304],
    ['another tag', () => '"0123456789abcdef0123456789abcdef"', 200],
    ['an unquoted tag', (e: string) => e.slice(1, -1), 200],
    ['an unclosed quote', (e: string) => e.slice(0, -1), 200],
    ['garbage after a tag', (e: string) => `${e} junk`, 200],
    ['an empty header', () => '', 200],
    ['a huge header holding the tag', (e: string) => `${'"a", '.repeat(3000)}${e}`, 200],
  ])('If-None-Match with %s → %s', async (_name, make, status) => {
    const t = setup();
    const etag = (await t.fetch('/api/v1')).headers.get('etag') as string;
    const res = await t.fetch('/api/v1', { headers: { 'if-none-match': make(etag) } });
    expect(res.status).toBe(status);
  });

  it('usage, admin and search answers are never stored; errors stay no-store', async () => {
    const t = setup({ config: { adminToken: 'admin-token-0123456789' } });
    const key = await t.issueKey();
    const usage = await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    expect(usage.headers.get('cache-control')).toBe('no-store');
    expect(usage.headers.get('etag')).toBeNull();
    const search = await t.fetch('/api/v1/search?q=house', { headers: { 'x-api-key': key } });
    expect(search.headers.get('cache-control')).toBe('no-store');
    expect(search.headers.get('etag')).toBeNull();
    const admin = await t.fetch('/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: 'Bearer admin-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com' }),
    });
    expect(admin.status).toBe(201);
    expect(admin.headers.get('cache-control')).toBe('no-store');
    const missing = await t.fetch('/api/v1/masters/999999999', { headers: { 'x-api-key': key, 'if-none-match': '*' } });
    await expectError(missing, 404, 'master_not_found');
  });
});

describe('CORS', () => {
  const ORIGIN = 'https://app.example';
  const cors = (origins: string[]) => setup({ config: { corsOrigins: origins } });

  it('off by default: no Access-Control-* anywhere, preflight answers only Allow', async () => {
    const t = setup();
    const pre = await t.fetch('/api/v1/search', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('allow')).toBe('GET, HEAD');
    expect([...pre.headers.keys()].filter((h) => h.startsWith('access-control'))).toEqual([]);
    const res = await t.fetch('/api/v1', { headers: { origin: ORIGIN } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a preflight from an allowed origin gets origin, methods, headers and max age, and counts nowhere', async () => {
    const t = cors([ORIGIN]);
    const key = await t.issueKey();
    const pre = await t.fetch('/api/v1/masters/113', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(pre.status).toBe(204);
    expect(await pre.text()).toBe('');
    expect(pre.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/x-api-key/);
    expect(pre.headers.get('access-control-max-age')).toBe('7200');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    expect(pre.headers.get('vary')).toMatch(/origin/i);
    const usage = await (await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).json();
    expect(usage.calls).toBe(0);
  });

  it('the actual answer (and an error) carries the origin, Vary: Origin and the exposed limit and id headers', async () => {
    const t = cors([ORIGIN, 'http://localhost:3000']);
    const key = await t.issueKey();
    const res = await t.fetch('/api/v1/masters/113', { headers: { origin: ORIGIN, 'x-api-key': key } });
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('vary')).toMatch(/origin/i);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(', ');
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy', 'x-request-id', 'retry-after', 'etag'])
      expect(exposed).toContain(h);
    const refused = await t.fetch('/api/v1/masters/113', { headers: { origin: 'http://localhost:3000' } });
    await expectError(refused, 401, 'missing_api_key');
    expect(refused.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it.each([
    ['another origin', 'https://evil.example'],
    ['the null origin', 'null'],
    ['a prefix of an allowed origin', 'https://app.example.evil'],
    ['a different scheme', 'http://app.example'],
    ['a huge header', `https://${'a'.repeat(20_000)}.example`],
  ])('refuses %s: no Access-Control-* on preflight or answer, Vary: Origin kept', async (_name, origin) => {
    const t = cors([ORIGIN]);
    const pre = await t.fetch('/api/v1/search', { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
    expect(pre.status).toBe(204);
    expect([...pre.headers.keys()].filter((h) => h.startsWith('access-control'))).toEqual([]);
    const res = await t.fetch('/api/v1', { headers: { origin } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('* allows any origin, null too, answering * (no credentials are ever allowed)', async () => {
    const t = cors(['*']);
    for (const origin of [ORIGIN, 'null']) {
      const res = await t.fetch('/api/v1', { headers: { origin } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});
