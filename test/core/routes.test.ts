import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

async function client() {
  const t = setup({ now: '2026-06-29T12:00:00Z' });
  const key = await t.issueKey({ tier: 'contract_2000' });
  const get = async (path: string) => {
    const res = await t.fetch(path, { headers: { 'x-api-key': key } });
    return res;
  };
  const ok = async <T = Record<string, unknown>>(path: string): Promise<T> => {
    const res = await get(path);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    return (await res.json()) as T;
  };
  return { t, key, get, ok };
}

describe('public routes', () => {
  it('GET /api/v1 lists the routes and links the OpenAPI document', async () => {
    const t = setup();
    const res = await t.fetch('/api/v1');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { routes: Array<{ path: string }>; _links: Record<string, string> };
    expect(body._links.openapi).toBe('http://catalogue.test/api/v1/openapi.json');
    expect(body.routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/v1/search', '/api/v1/masters/{id}', '/api/v1/masters/batch', '/api/v1/usage']),
    );
    expect(body.routes.map((r) => r.path)).not.toContain('/api/v1/admin/keys');
  });

  it('GET /api/v1/openapi.json is an OpenAPI 3.1 document of every v1 route', async () => {
    const t = setup();
    const doc = (await (await t.fetch('/api/v1/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of t.service.routes.filter((r) => r.path.startsWith('/api/v1'))) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    expect(doc.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
  });
});

describe('data routes', () => {
  it('search: hits with links, latency header, keyset paging, type and facet filters', async () => {
    const { get, ok } = await client();
    const res = await get('/api/v1/search?q=moments');
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-search-latency-ms'))).toBeGreaterThanOrEqual(0);
    const body = (await res.json()) as { hits: Array<Record<string, unknown>>; next_cursor: string | null };
    expect(body.hits[0]).toMatchObject({ type: 'master', id: 113, name: 'Moments In Time' });
    expect((body.hits[0]?._links as Record<string, string> | undefined)?.self).toBe('http://catalogue.test/api/v1/masters/113');

    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { hits: Array<{ type: string; id: number }>; next_cursor: string | null } = await ok(
        `/api/v1/search?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.hits.length).toBeLessThanOrEqual(2);
      all.push(...page.hits.map((h) => `${h.type}:${h.id}`));
      cursor = page.next_cursor;
    } while (cursor);
    const full = await ok<{ hits: Array<{ type: string; id: number }> }>('/api/v1/search?limit=100');
    expect(all).toEqual(full.hits.map((h) => `${h.type}:${h.id}`));
    expect(new Set(all).size).toBe(all.length);

    const artists = await ok<{ hits: Array<{ type: string }> }>('/api/v1/search?type=artist');
    expect(artists.hits.length).toBe(4);
    expect(artists.hits.every((h) => h.type === 'artist')).toBe(true);
    const rock = await ok<{ hits: Array<{ id: number }> }>('/api/v1/search?genre=Rock');
    expect(rock.hits.map((h) => h.id)).toEqual([501]);
    const years = await ok<{ hits: Array<{ id: number }> }>('/api/v1/search?year_from=1999&year_to=2002');
    expect(years.hits.map((h) => h.id).sort()).toEqual([113, 1660109]);
  });

  it('facets: counts per facet over the filtered set', async () => {
    const { ok } = await client();
    const body = await ok<{ total: number; facets: Record<string, Array<{ value: string; count: number }>> }>('/api/v1/facets?facets=genre,country,label');
    expect(body.total).toBe(4);
    expect(body.facets.genre).toEqual([
      { value: 'Electronic', count: 3 },
      { value: 'Rock', count: 1 },
    ]);
    expect(body.facets.label?.[0]).toEqual({ value: 'Svek', count: 3 });
    const filtered = await ok<{ total: number }>('/api/v1/facets?facets=style&genre=Electronic&country=Germany');
    expect(filtered.total).toBe(1);
  });

  it('masters/{id}: the master record of docs/decisions.md §5', async () => {
    const { ok } = await client();
    const master = await ok('/api/v1/masters/113');
    expect(master).toMatchObject({
      master_id: 113,
      title: 'Moments In Time',
      year: 2002,
      main_release_id: 116925,
      artists: [{ cluster_id: 3225 * 4 + 1, slug: 'vince-watson', name: 'Vince Watson', anv: null, join: null }],
      genres: ['Electronic'],
      styles: ['Techno', 'Tech House'],
      formats: ['Vinyl'],
      country: 'UK',
      labels: [{ cluster_id: 1 * 4 + 2, slug: 'planet-e', name: 'Planet E', catno: 'PE-113' }],
      released: '2002-04-01',
      data_quality: 'Correct',
    });
    expect(await ok('/api/v1/masters/501')).toMatchObject({ year: null });
  });

  it('dossier/master/{id}', async () => {
    const { ok, get } = await client();
    const dossier = await ok<{ master: { master_id: number }; releases: unknown[]; release_count: number }>('/api/v1/dossier/master/113');
    expect(dossier.master.master_id).toBe(113);
    expect(dossier.release_count).toBe(1);
    await expectError(await get('/api/v1/dossier/master/7'), 404, 'master_not_found');
  });

  it('artist/{key} by cluster_id, slug and typed locators; label/{key}; dossiers by slug', async () => {
    const { ok, get } = await client();
    const byId = await ok<Record<string, unknown>>(`/api/v1/artist/${3225 * 4 + 1}`);
    expect(byId).toMatchObject({ kind: 'artist', slug: 'vince-watson', name: 'Vince Watson' });
    expect(Object.keys(byId)).toEqual(expect.arrayContaining(['identity', 'behavior', 'discography', 'bandcamp']));
    expect(await ok('/api/v1/artist/vince-watson')).toEqual(byId);
    expect(await ok('/api/v1/artist/discogs:3225')).toEqual(byId);
    expect(await ok('/api/v1/artist/mbid:0a3b5c7d-1111-4222-8333-944455556666')).toEqual(byId);
    expect(await ok('/api/v1/dossier/artist/vince-watson')).toEqual(byId);
    await expectError(await get('/api/v1/artist/nobody-here'), 404, 'not_found');
    await expectError(await get('/api/v1/artist/Not%20A%20Slug'), 400, 'invalid_query');
    // A label's cluster id is not an artist.
    await expectError(await get(`/api/v1/artist/${1 * 4 + 2}`), 404, 'not_found');
    expect(await ok('/api/v1/label/svek')).toMatchObject({ kind: 'label', name: 'Svek' });
    expect(await ok('/api/v1/dossier/label/planet-e')).toMatchObject({ kind: 'label', name: 'Planet E' });
    expect(await ok('/api/v1/dossier/festival/kestrel-fields')).toMatchObject({ kind: 'festival', name: 'Kestrel Fields' });
    await expectError(await get('/api/v1/dossier/festival/none'), 404, 'not_found');
    const manifest = await ok<{ dossiers: Record<string, unknown> }>('/api/v1/dossier/manifest');
    expect(Object.keys(manifest.dossiers)).toEqual(['artist', 'label', 'festival', 'master']);
  });

  it('resolve by q, url, discogs and mbid', async () => {
    const { ok, get } = await client();
    const expected = { cluster_id: 3225 * 4 + 1, kind: 'artist', slug: 'vince-watson' };
    expect(await ok('/api/v1/resolve?q=vince%20watson')).toMatchObject(expected);
    expect(await ok(`/api/v1/resolve?url=${encodeURIComponent('https://www.discogs.com/artist/3225-Vince-Watson')}`)).toMatchObject(expected);
    expect(await ok('/api/v1/resolve?discogs=3225')).toMatchObject(expected);
    expect(await ok('/api/v1/resolve?discogs=master/113')).toMatchObject(expected);
    expect(await ok('/api/v1/resolve?discogs=label/5')).toMatchObject({ kind: 'label', slug: 'svek' });
    expect(await ok('/api/v1/resolve?mbid=0a3b5c7d-1111-4222-8333-944455556666')).toMatchObject(expected);
    expect(await ok(`/api/v1/resolve?url=${encodeURIComponent('https://vincewatson.bandcamp.com/album/x')}`)).toMatchObject(expected);
    const found = await ok<{ locators: Array<{ source: string }>; _links: Record<string, string> }>('/api/v1/resolve?q=vince%20watson');
    expect(found.locators.map((l) => l.source)).toEqual(expect.arrayContaining(['discogs', 'musicbrainz', 'bandcamp']));
    expect(found._links.self).toBe(`http://catalogue.test/api/v1/artist/${3225 * 4 + 1}`);
    await expectError(await get('/api/v1/resolve?q=zzzzzz'), 404, 'not_found');
    await expectError(await get(`/api/v1/resolve?url=${encodeURIComponent('https://example.com/x')}`), 400, 'invalid_query');
  });

  it('bandcamp routes', async () => {
    const { ok, get } = await client();
    const signals = await ok<{ followers: number; series: unknown[]; url: string }>('/api/v1/bandcamp/marla-vance');
    expect(signals.url).toBe('https://marlavance.bandcamp.com');
    expect(signals.series).toHaveLength(12);
    const manifest = await ok<{ artists: Array<{ slug: string }>; fields: object }>('/api/v1/bandcamp');
    expect(manifest.artists.map((a) => a.slug).sort()).toEqual(['marla-vance', 'the-persuader', 'vince-watson']);
    const releases = await ok<{ releases: Array<{ title: string }> }>('/api/v1/bandcamp/release?artist=marla-vance');
    expect(releases.releases.map((r) => r.title)).toEqual(['Velvet Hours']);
    const byUrl = await ok<{ artist: { slug: string } }>(
      `/api/v1/bandcamp/release?url=${encodeURIComponent('https://marlavance.bandcamp.com/album/velvet-hours')}`,
    );
    expect(byUrl.artist.slug).toBe('marla-vance');
    await expectError(await get('/api/v1/bandcamp/sable-ortiz'), 404, 'not_found');
  });

  it('breakouts, tastemakers and ones-to-watch answer lists', async () => {
    const { ok } = await client();
    const breakouts = await ok<{ as_of: string; items: Array<{ slug: string }> }>('/api/v1/breakouts?window=90d');
    expect(breakouts.as_of).toBe('2026-06-29');
    expect(breakouts.items.map((b) => b.slug)).toContain('marla-vance');
    expect(breakouts.items.map((b) => b.slug)).not.toContain('vince-watson');
    const t = await ok<{ items: unknown[] }>('/api/v1/tastemakers');
    expect(Array.isArray(t.items)).toBe(true);
    const o = await ok<{ items: unknown[] }>('/api/v1/tastemakers/ones-to-watch');
    expect(Array.isArray(o.items)).toBe(true);
  });

  it('usage: current month against the quota', async () => {
    const { t, key, ok } = await client();
    await ok('/api/v1/masters/113');
    const res = await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(await res.json()).toMatchObject({
      calls: 1,
      quota: 1_000_000,
      overage: 'contract',
      month: '2026-06',
      resets_at: '2026-07-01T00:00:00.000Z',
      environment: 'test',
      tier: 'contract_2000',
    });
  });
});
