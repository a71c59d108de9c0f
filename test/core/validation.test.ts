import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

async function client() {
  const t = setup({ now: '2026-03-10T10:00:00Z' });
  const key = await t.issueKey({ tier: 'contract_2000' });
  return { t, get: (path: string) => t.fetch(path, { headers: { 'x-api-key': key } }) };
}

describe('strict query schemas → 400 invalid_query with details[{path, message}]', () => {
  it.each([
    ['unknown parameter', '/api/v1/search?q=techno&colour=red', 'colour'],
    ['limit above 100', '/api/v1/search?limit=101', 'limit'],
    ['limit zero', '/api/v1/search?limit=0', 'limit'],
    ['limit not a number', '/api/v1/search?limit=ten', 'limit'],
    ['limit negative', '/api/v1/search?limit=-1', 'limit'],
    ['year_from above year_to', '/api/v1/search?year_from=2005&year_to=2000', 'year_from'],
    ['year not a number', '/api/v1/search?year_from=199x', 'year_from'],
    ['unknown type', '/api/v1/search?type=song', 'type'],
    ['repeated single-valued parameter', '/api/v1/search?limit=5&limit=6', 'limit'],
    ['bad cursor', '/api/v1/search?cursor=not*a*cursor', 'cursor'],
    ['forged cursor', `/api/v1/search?cursor=${btoa('["x","master",1]')}`, 'cursor'],
    ['facet filter with type artist', '/api/v1/search?genre=Rock&type=artist', 'type'],
    ['query on a route without parameters', '/api/v1/masters/113?verbose=1', 'verbose'],
    ['unknown window', '/api/v1/breakouts?window=7d', 'window'],
    ['two resolve inputs', '/api/v1/resolve?q=a&mbid=b', 'mbid'],
    ['no resolve input', '/api/v1/resolve', 'q'],
    ['empty q', '/api/v1/search?q=', 'q'],
  ])('%s', async (_name, path, detailPath) => {
    const { get } = await client();
    const body = await expectError(await get(path), 400, 'invalid_query');
    const details = body.details as Array<{ path: string; message: string }>;
    expect(details.length).toBeGreaterThan(0);
    for (const d of details) expect(typeof d.message).toBe('string');
    expect(details.map((d) => d.path)).toContain(detailPath);
  });

  it('reports one detail per issue', async () => {
    const { get } = await client();
    const body = await expectError(await get('/api/v1/search?limit=500&type=x&foo=1'), 400, 'invalid_query');
    expect((body.details as Array<{ path: string }>).map((d) => d.path).sort()).toEqual(['foo', 'limit', 'type']);
  });

  it('names the parameter a homoglyph imitates (UTS #39 skeleton)', async () => {
    const { get } = await client();
    // Cyrillic е (U+0435) in "gеnre", Cyrillic і in "lіmit": NFKC keeps them, the skeleton exposes them.
    for (const [raw, imitated] of [
      ['g\u0435nre', 'genre'],
      ['l\u0456mit', 'limit'],
      ['typ\u0435', 'type'],
    ]) {
      const body = await expectError(await get(`/api/v1/search?${encodeURIComponent(raw as string)}=x`), 400, 'invalid_query');
      expect(body.details).toEqual([{ path: raw, message: expect.stringContaining(`"${imitated}"`), imitates: imitated }]);
    }
  });

  it('accepts names and values that NFKC normalizes to allowed ones', async () => {
    const { get } = await client();
    // Full-width "ｌｉｍｉｔ=１" and a compatibility ligature in the value.
    const res = await get(`/api/v1/search?${encodeURIComponent('ｌｉｍｉｔ')}=${encodeURIComponent('１')}&q=${encodeURIComponent('ﬁ')}`);
    expect(res.status).toBe(200);
  });
});

describe('invalid_facet', () => {
  it('names the raw and NFKC-normalized name tried', async () => {
    const { get } = await client();
    const body = await expectError(await get(`/api/v1/facets?facets=genre,${encodeURIComponent('ｍｏｏｄ')}`), 400, 'invalid_facet');
    expect(body.details).toEqual([{ path: 'facets', message: expect.any(String), raw: 'ｍｏｏｄ', normalized: 'mood' }]);
  });

  it('accepts every allowlisted facet name, full-width too', async () => {
    const { get } = await client();
    const res = await get(`/api/v1/facets?facets=genre,style,format,country,year_from,year_to,label,${encodeURIComponent('ｇｅｎｒｅ')}`);
    expect(res.status).toBe(200);
  });
});

describe('batch', () => {
  const post = async (body: string, tier: 'self_serve_49' | 'contract_2000' = 'self_serve_49') => {
    const t = setup();
    const key = await t.issueKey({ tier });
    return t.fetch('/api/v1/masters/batch', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
  };

  it.each([
    ['malformed JSON', '{"ids": [1,'],
    ['empty ids', '{"ids": []}'],
    ['ids not an array', '{"ids": 5}'],
    ['not an object', '[1,2]'],
    ['101 ids on self-serve', JSON.stringify({ ids: Array.from({ length: 101 }, (_, i) => i + 1) })],
  ])('%s → 400 invalid_batch_size', async (_n, body) => {
    await expectError(await post(body), 400, 'invalid_batch_size');
  });

  it('contract tier takes 500 ids, not 501', async () => {
    expect((await post(JSON.stringify({ ids: Array.from({ length: 500 }, (_, i) => i + 1) }), 'contract_2000')).status).toBe(200);
    await expectError(await post(JSON.stringify({ ids: Array.from({ length: 501 }, (_, i) => i + 1) }), 'contract_2000'), 400, 'invalid_batch_size');
  });

  it('a bad id inside → 400 invalid_master_id naming its index', async () => {
    const body = await expectError(await post('{"ids": [113, 0, "x"]}'), 400, 'invalid_master_id');
    expect((body.details as Array<{ path: string }>).map((d) => d.path)).toEqual(['ids.1', 'ids.2']);
  });

  it('body over 32 KB → 413 payload_too_large, counted on the bytes', async () => {
    const big = JSON.stringify({ ids: [1], pad: 'x'.repeat(33 * 1024) });
    await expectError(await post(big), 413, 'payload_too_large');
    // A stream without Content-Length is counted as it arrives.
    const t = setup();
    const key = await t.issueKey();
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        c.close();
      },
    });
    const res = await t.fetch(
      new Request('http://catalogue.test/api/v1/masters/batch', {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    await expectError(res, 413, 'payload_too_large');
  });

  it('answers in request order, duplicates once, missing listed', async () => {
    const res = await post('{"ids": [500, 113, 500, 42]}');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { masters: Array<{ master_id: number }>; missing: number[] };
    expect(body.masters.map((m) => m.master_id)).toEqual([500, 113]);
    expect(body.missing).toEqual([42]);
  });
});
