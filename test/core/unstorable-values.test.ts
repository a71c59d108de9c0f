/**
 * docs/decisions.md §6: values no store can hold are refused in core before any query, with the same
 * answer on every store — 400 (`invalid_query` / `invalid_body`) naming the parameter when the
 * value is malformed or out of its documented range, 404 when it is well-formed but names
 * nothing the catalogue can hold. On PostgreSQL these used to reach a query and answer 500.
 */
import type { Catalogue } from '@catalogue/core';
import { createMemoryAccounts } from '@catalogue/core/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/service.js';
import { STORES, type StoreService, serviceOn } from '../support/stores.js';

const cursorOf = (position: unknown) => btoa(JSON.stringify(position)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** [what, path, detail path]: each answers 400 invalid_query naming that parameter. */
const REFUSED: Array<[string, string, string]> = [
  ['NUL in a facet filter', '/api/v1/search?genre=%00', 'genre'],
  ['NUL in q', '/api/v1/search?q=moments%00', 'q'],
  ['NUL in a facets filter', '/api/v1/facets?facets=genre&country=UK%00', 'country'],
  ['NUL in a label filter', '/api/v2/search?label=%00', 'label'],
  ['NUL in the breakouts genre', '/api/v1/breakouts?genre=%00', 'genre'],
  ['NUL in the ones-to-watch genre', '/api/v1/tastemakers/ones-to-watch?genre=Electronic%00', 'genre'],
  ['NUL in a bandcamp tag', '/api/v1/bandcamp?tag=%00', 'tag'],
  ['NUL in a bandcamp release link', '/api/v1/bandcamp/release?url=https://vince.bandcamp.com/album/a%00', 'url'],
  ['NUL in resolve q', '/api/v1/resolve?q=Vince%00', 'q'],
  ['NUL in a resolve link', '/api/v1/resolve?url=https://vince.bandcamp.com/%00', 'url'],
  ['NUL in v2 fields', '/api/v2/artist/vince-watson?fields=identity%00', 'fields'],
  ['NUL in the wayfind path', '/api/v1/wayfind?path=/api/v1/masters/113%00', 'path'],
  ['NUL in a dashboard session token', '/api/dashboard/session?token=%00', 'token'],
  ['NUL in a {key}', '/api/v1/artist/vince%00watson', 'key'],
  ['NUL in a slug', '/api/v1/dossier/festival/%00', 'slug'],
  ['resolve discogs id above 2,000,000,000', '/api/v1/resolve?discogs=2147483648', 'discogs'],
  ['resolve discogs label id above 2,000,000,000', '/api/v1/resolve?discogs=label/2147483648', 'discogs'],
  ['resolve discogs master id above 2,000,000,000', '/api/v1/resolve?discogs=master/2000000001', 'discogs'],
  ['resolve Discogs link with an id above 2,000,000,000', '/api/v1/resolve?url=https://www.discogs.com/artist/2147483648-Someone', 'url'],
  ['discogs:<id above 2,000,000,000> as a {key}', '/api/v1/artist/discogs:2147483648', 'key'],
  ['discogs:<id above 2,000,000,000> as a label {key}', '/api/v1/label/discogs:9999999999', 'key'],
  ['discogs:<id above 2,000,000,000> as an artistKey', '/api/v1/bandcamp/discogs:2147483648', 'artistKey'],
  ['a cluster_id no discogs id derives', '/api/v2/artist/8000000004', 'key'],
  ['a search cursor tampered to a master id above 2,000,000,000', `/api/v1/search?cursor=${cursorOf([1, 'master', 2147483648])}`, 'cursor'],
  ['a search cursor tampered to a cluster id above 2³¹−1', `/api/v1/search?cursor=${cursorOf([1, 'artist', 2147483648])}`, 'cursor'],
  ['a search cursor tampered to id 0', `/api/v1/search?cursor=${cursorOf([1, 'label', 0])}`, 'cursor'],
  ['a bandcamp cursor above 2³¹−1', '/api/v1/bandcamp?cursor=2147483648', 'cursor'],
];

/** [what, path]: well-formed, but the catalogue cannot hold what it names → 404 not_found. */
const CANNOT_EXIST: Array<[string, string]> = [
  ['a cluster_id above 2³¹−1', '/api/v1/artist/2147483648'],
  ['a v2 cluster_id above 2³¹−1', '/api/v2/artist/2147483649'],
  ['a label cluster_id above 2³¹−1', '/api/v1/label/4000000002'],
  ['an artistKey cluster_id above 2³¹−1', '/api/v1/bandcamp/2147483653'],
  ['a bandcamp release artist cluster_id above 2³¹−1', '/api/v1/bandcamp/release?artist=2147483653'],
  ['discogs:<id whose cluster_id exceeds 2³¹−1>', '/api/v1/artist/discogs:536870912'],
  ['resolve discogs id whose cluster_id exceeds 2³¹−1', '/api/v1/resolve?discogs=2000000000'],
  ['resolve discogs label id whose cluster_id exceeds 2³¹−1', '/api/v1/resolve?discogs=label/536870912'],
  ['resolve Discogs link whose cluster_id exceeds 2³¹−1', '/api/v1/resolve?url=https://www.discogs.com/label/1999999999-Somewhere'],
];

describe.each(STORES)('values no store can hold, on %s', (_store, open) => {
  let s: StoreService;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(() => s?.close());
  const get = (path: string) => s.fetch(path, { headers: { 'x-api-key': s.key } });

  it.each(REFUSED)('%s → 400 invalid_query', async (_what, path, detailPath) => {
    const body = await expectError(await get(path), 400, 'invalid_query');
    expect(body.details).toEqual([{ path: detailPath, message: expect.any(String) }]);
  });

  it.each(CANNOT_EXIST)('%s → 404 not_found', async (_what, path) => {
    await expectError(await get(path), 404, 'not_found');
  });

  it.each([
    ['NUL', 'Ops\u0000'],
    ['a lone surrogate', 'Ops \ud800'],
  ])('%s in an admin key name → 400 invalid_body naming it', async (_what, name) => {
    const res = await s.fetch('/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', name }),
    });
    const body = await expectError(res, 400, 'invalid_body');
    expect(body.details).toEqual([{ path: 'name', message: expect.any(String) }]);
  });

  it.each([
    ['NUL', 'moments\u0000'],
    ['a lone surrogate', 'moments \udfff'],
  ])('%s in a refined beacon → 400 invalid_body naming q', async (_what, q) => {
    const search = (await (await get('/api/v1/search?q=moments')).json()) as { search_id: string; beacon_token: string };
    const res = await s.fetch('/api/v1/search-events/refined', {
      method: 'POST',
      headers: { authorization: `Bearer ${search.beacon_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ search_id: search.search_id, q }),
    });
    const body = await expectError(res, 400, 'invalid_body');
    expect(body.details).toEqual([{ path: 'q', message: expect.any(String) }]);
  });

  it('a beacon hit id no hit can have → 400 invalid_body naming it', async () => {
    const search = (await (await get('/api/v1/search?q=moments')).json()) as { search_id: string; beacon_token: string };
    const res = await s.fetch('/api/v1/search-events/observed', {
      method: 'POST',
      headers: { authorization: `Bearer ${search.beacon_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ search_id: search.search_id, hits: [{ id: 2 ** 53, position: 0 }] }),
    });
    const body = await expectError(res, 400, 'invalid_body');
    expect(body.details).toEqual([{ path: 'hits.0.id', message: expect.any(String) }]);
  });

  it('the largest ids that can exist still reach the store and answer 404', async () => {
    for (const path of ['/api/v1/artist/2147483647', '/api/v1/artist/discogs:536870911', '/api/v1/resolve?discogs=master/2000000000']) {
      await expectError(await get(path), 404, 'not_found');
    }
    expect((await get('/api/v1/bandcamp?cursor=2147483647')).status).toBe(200);
  });

  it('logged no internal error', () => {
    expect(s.logs.filter((l) => l.kind === 'request.internal_error')).toEqual([]);
  });
});

describe('refused before any store call', () => {
  // A catalogue that fails every call: a 500 means the value reached the store.
  const untouchable = new Proxy({} as Catalogue, { get: () => () => Promise.reject(new Error('the catalogue was asked')) });
  let s: StoreService;
  beforeAll(async () => {
    s = await serviceOn(untouchable, createMemoryAccounts());
  });

  it.each([...REFUSED.map(([what, path]) => [what, path, 400] as const), ...CANNOT_EXIST.map(([what, path]) => [what, path, 404] as const)])(
    '%s',
    async (_what, path, status) => {
      expect((await s.fetch(path, { headers: { 'x-api-key': s.key } })).status).toBe(status);
    },
  );
});
