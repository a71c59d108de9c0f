/** v2 keeper routes: cluster-first artist with fields, discography detail, manifest, shared handlers. */
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

interface Dossier {
  cluster_id: number;
  slug: string;
  identity?: unknown;
  behavior?: unknown;
  bandcamp?: unknown;
  discography?: {
    counts: { masters: number };
    masters: Array<{
      master_id: number;
      title: string;
      master: { master_id: number; title: string; _links: Record<string, string> };
      releases: Array<{ release_id: number; master_id: number }>;
      release_count: number;
    }>;
  };
  _links: Record<string, string>;
}

describe('v2 artist', () => {
  it('resolve then artist/{cluster_id}: the canonical flow, discography carries master and release detail', async () => {
    const { ok } = await client();
    const cluster = await ok<{ cluster_id: number; slug: string; _links: Record<string, string> }>('/api/v2/resolve?q=Marla%20Vance');
    expect(cluster.slug).toBe('marla-vance');
    expect(cluster._links.self).toBe(`http://catalogue.test/api/v2/artist/${cluster.cluster_id}`);
    const dossier = await ok<Dossier>(`/api/v2/artist/${cluster.cluster_id}`);
    expect(Object.keys(dossier).sort()).toEqual(['_links', 'bandcamp', 'behavior', 'cluster_id', 'discography', 'identity', 'kind', 'name', 'slug']);
    const masters = dossier.discography?.masters ?? [];
    expect(masters.map((m) => m.master_id).sort()).toEqual([500, 501]);
    for (const m of masters) {
      const v1 = await ok<{ master: { title: string }; releases: unknown[]; release_count: number }>(`/api/v1/dossier/master/${m.master_id}`);
      // The same detail v1 served from its demoted routes, now inside the facet.
      expect(m.master.title).toBe(v1.master.title);
      // …with each credited label linked into the version called (issue 12)
      expect(m.releases).toEqual(JSON.parse(JSON.stringify(v1.releases).replaceAll('/api/v1/', '/api/v2/')));
      const releases = m.releases as unknown as Array<{ labels: Array<{ cluster_id: number; _links: { dossier: string } }> }>;
      for (const release of releases)
        for (const label of release.labels) expect(label._links.dossier).toBe(`http://catalogue.test/api/v2/label/${label.cluster_id}`);
      expect(m.release_count).toBe(v1.release_count);
      expect(m.master._links.artist).toBe(`http://catalogue.test/api/v2/artist/${cluster.cluster_id}?fields=discography`);
    }
    const velvet = masters.find((m) => m.master_id === 500);
    expect(velvet?.releases.map((r) => r.release_id)).toEqual([900]);
  });

  it('fields trims the dossier; slug and typed locators work; unknown facet names → 400 naming them', async () => {
    const { ok, get } = await client();
    const trimmed = await ok<Dossier>('/api/v2/artist/marla-vance?fields=identity,bandcamp');
    expect(Object.keys(trimmed).sort()).toEqual(['_links', 'bandcamp', 'cluster_id', 'identity', 'kind', 'name', 'slug']);
    const byLocator = await ok<Dossier>('/api/v2/artist/discogs:7?fields=discography');
    expect(byLocator.cluster_id).toBe(trimmed.cluster_id);
    expect(Object.keys(byLocator)).not.toContain('identity');
    const nfkc = await ok<Dossier>('/api/v2/artist/marla-vance?fields=%EF%BD%89dentity'); // fullwidth ｉ
    expect(nfkc.identity).toBeDefined();

    const bad = await expectError(await get('/api/v2/artist/marla-vance?fields=identity,releases,fans'), 400, 'invalid_query');
    expect(bad.details).toEqual([
      { path: 'fields', message: '"releases" is not a facet; allowed: identity, behavior, discography, bandcamp', value: 'releases' },
      { path: 'fields', message: '"fans" is not a facet; allowed: identity, behavior, discography, bandcamp', value: 'fans' },
    ]);
    await expectError(await get('/api/v2/artist/marla-vance?fieldz=identity'), 400, 'invalid_query');
    await expectError(await get('/api/v2/artist/nobody-here'), 404, 'not_found');
  });

  it('v2 keeps the v1 handlers: search links point into v2, demoted routes do not exist on v2', async () => {
    const { ok, get } = await client();
    const search = await ok<{ hits: Array<{ type: string; _links: Record<string, string> }> }>('/api/v2/search?q=marla');
    const artist = search.hits.find((h) => h.type === 'artist');
    expect(artist?._links.self).toMatch(/^http:\/\/catalogue\.test\/api\/v2\/artist\/\d+$/);
    const master = await ok<{ hits: Array<{ id: number; _links: Record<string, string> }> }>('/api/v2/search?q=velvet&type=master');
    expect(master.hits[0]?._links).toEqual({ artist: 'http://catalogue.test/api/v2/resolve?discogs=master/500' });
    for (const path of [
      '/api/v2/facets?facets=genre',
      '/api/v2/breakouts',
      '/api/v2/tastemakers',
      '/api/v2/tastemakers/ones-to-watch',
      '/api/v2/label/svek',
      '/api/v2/dossier/festival/kestrel-fields',
      '/api/v2/dossier/artist/marla-vance',
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
    for (const path of ['/api/v2/masters/113', '/api/v2/bandcamp/marla-vance', '/api/v2/dossier/master/113', '/api/v2/usage', '/api/v2/wayfind?path=/api/v1']) {
      await expectError(await get(path), 404, 'route_not_found');
    }
  });

  it('v2 dossier/manifest says where master, release and Bandcamp detail sit', async () => {
    const { ok } = await client();
    const manifest = await ok<{
      version: string;
      dossiers: Record<string, { route: string; facets: Record<string, Record<string, unknown>> }>;
      detail: Record<string, { route: string; pointer: string }>;
    }>('/api/v2/dossier/manifest');
    expect(manifest.version).toBe('v2');
    expect(manifest.dossiers.master).toBeUndefined();
    expect(manifest.dossiers.artist?.route).toBe('/api/v2/artist/{key}');
    expect(Object.keys(manifest.dossiers.artist?.facets.discography ?? {})).toEqual(expect.arrayContaining(['masters[].master', 'masters[].releases']));
    expect(manifest.detail.master).toMatchObject({ route: '/api/v2/artist/{cluster_id}?fields=discography', pointer: '/discography/masters/{i}/master' });
    expect(manifest.detail.release).toMatchObject({ pointer: '/discography/masters/{i}/releases' });
    expect(manifest.detail.bandcamp).toMatchObject({ route: '/api/v2/artist/{cluster_id}?fields=bandcamp', pointer: '/bandcamp' });
  });
});
