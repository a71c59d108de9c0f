/** Wayfind: the v1 → v2 migration helper, operational and key-gated. */
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

async function client() {
  const t = setup({ now: '2026-06-29T12:00:00Z' });
  const key = await t.issueKey({ tier: 'contract_2000' });
  const get = (path: string) => t.fetch(path, { headers: { 'x-api-key': key } });
  const ok = async <T = Record<string, unknown>>(path: string): Promise<T> => {
    const res = await get(path);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return { t, get, ok };
}

const q = (path: string) => `/api/v1/wayfind?path=${encodeURIComponent(path)}`;

describe('wayfind', () => {
  it('classifies keeper, demoted and operational paths', async () => {
    const { ok } = await client();
    expect(await ok(q('/api/v1/search?q=house&limit=5'))).toEqual({
      from: '/api/v1/search?q=house&limit=5',
      kind: 'keeper',
      to: '/api/v2/search?q=house&limit=5',
      method: 'GET',
      note: expect.stringContaining('308'),
    });
    expect(await ok(q('/api/v1/search-events/observed'))).toMatchObject({ kind: 'keeper', to: '/api/v2/search-events/observed', method: 'POST' });
    expect(await ok(q('/api/v1/usage'))).toMatchObject({ kind: 'operational', to: '/api/v1/usage', method: 'GET' });
    expect(await ok(q('/api/v1/bandcamp/marla-vance'))).toMatchObject({ kind: 'demoted', to: '/api/v2/artist/marla-vance?fields=bandcamp', method: 'GET' });
    expect(await ok(q('/api/v1/masters/batch'))).toMatchObject({ kind: 'demoted', to: '/api/v2/dossier/manifest', method: 'GET' });
  });

  it('a demoted master path names the artist path and the pointer', async () => {
    const { ok } = await client();
    const artist = await ok<{ cluster_id: number; discography: { masters: Array<{ master_id: number }> } }>('/api/v2/artist/discogs:7?fields=discography');
    const index = artist.discography.masters.findIndex((m) => m.master_id === 501);
    const answer = await ok<{ kind: string; to: string; note: string }>(q('/api/v1/masters/501'));
    expect(answer).toMatchObject({ kind: 'demoted', to: `/api/v2/artist/${artist.cluster_id}?fields=discography`, method: 'GET' });
    expect(answer.note).toContain(`/discography/masters/${index}`);
  });

  it('wayfind/master/{id}: the v2 path and a JSON pointer that really lands on the master', async () => {
    const { ok, get } = await client();
    const found = await ok<{ to: string; pointer: string; releases_pointer: string; artist: { name: string } }>('/api/v1/wayfind/master/500');
    expect(found.artist.name).toBe('Marla Vance');
    const target = await ok<Record<string, unknown>>(found.to);
    const walk = (doc: unknown, pointer: string) =>
      pointer
        .split('/')
        .slice(1)
        .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], doc);
    expect(walk(target, found.pointer)).toMatchObject({ master_id: 500, title: 'Velvet Hours' });
    expect((walk(target, found.releases_pointer) as Array<{ release_id: number }>).map((r) => r.release_id)).toEqual([900]);

    const missing = await expectError(await get('/api/v1/wayfind/master/999'), 404, 'master_not_found');
    expect(missing.master_id).toBe(999);
    await expectError(await get('/api/v1/wayfind/master/0x1'), 400, 'invalid_master_id');
  });

  it('refuses what is not a v1 route, and needs a key', async () => {
    const { t, get } = await client();
    for (const path of ['/api/v2/search', 'api/v1/search', '/api/v1/nowhere']) {
      await expectError(await get(q(path)), 400, 'invalid_query');
    }
    await expectError(await get('/api/v1/wayfind'), 400, 'invalid_query');
    await expectError(await get(`${q('/api/v1/usage')}&method=POST`), 400, 'invalid_query');
    await expectError(await t.fetch(q('/api/v1/search')), 401, 'missing_api_key');
  });
});
