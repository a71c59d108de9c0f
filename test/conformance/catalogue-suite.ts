/**
 * Conformance assertions for any Catalogue built from a CatalogueData. On the hand-made fixture
 * (`exactFixture`) every answer is compared with a fixed expected answer, recorded once in
 * fixture-answers.json and reviewed (issue 32: compared with the memory catalogue itself, the
 * memory suite could fail only by throwing); on other data (the generated catalogue on
 * PostgreSQL) with the in-memory catalogue over the same data. A few exact values are also
 * asserted outright.
 *
 * After a deliberate change of an answer: `CATALOGUE_RECORD_ANSWERS=1 npx vitest run
 * test/conformance/catalogue-memory.test.ts` rewrites the file from the memory catalogue; review
 * its diff as you would a change of the expected values by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Catalogue, type CatalogueData, clusterIdOf, type SearchHitData, type SearchQuery } from '@catalogue/core';
import { tokensOf } from '@catalogue/core/catalogue';
import { createMemoryCatalogue } from '@catalogue/core/memory';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const ANSWERS_FILE = join(import.meta.dirname, 'fixture-answers.json');
const RECORD = process.env.CATALOGUE_RECORD_ANSWERS === '1';

/** An answer as the file keeps it: JSON, `undefined` as null. */
const asStored = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(value)));

export interface BuiltCatalogue {
  catalogue: Catalogue;
  close(): Promise<void>;
}

const A = (id: number) => clusterIdOf('artist', id);
const L = (id: number) => clusterIdOf('label', id);
const F = (id: number) => clusterIdOf('festival', id);

function searchQuery(q: string | null, extra: Partial<SearchQuery> = {}): SearchQuery {
  return { q, type: 'all', filters: {}, limit: 100, after: null, ...extra };
}

/** Ids that exist in the data plus a few that do not, for per-entity comparisons. */
function probeIds(data: CatalogueData) {
  const take = <T>(rows: T[], n: number) => rows.slice(0, n);
  return {
    masters: [...take(data.masters, 12).map((m) => m.master_id), 987_654_321],
    artists: [...take(data.artists, 12).map((a) => A(a.discogs_id)), A(987_654), L(1)],
    labels: [...take(data.labels, 8).map((l) => L(l.discogs_id)), L(987_654)],
    festivals: [...take(data.festivals, 4).map((f) => F(f.festival_id)), F(987_654)],
    names: [...take(data.artists, 6).map((a) => a.name), ...take(data.labels, 3).map((l) => l.name), ...take(data.festivals, 2).map((f) => f.name)],
  };
}

export function describeCatalogueConformance(
  name: string,
  data: CatalogueData,
  build: (data: CatalogueData) => Promise<BuiltCatalogue>,
  options: { exactFixture?: boolean } = {},
): void {
  describe(`Catalogue conformance: ${name}`, () => {
    const reference = createMemoryCatalogue(data);
    let built: BuiltCatalogue;
    let catalogue: Catalogue;
    const probes = probeIds(data);
    // The fixed answers of each test, in the order the test asks for them.
    const fixed: Record<string, unknown[]> | null = options.exactFixture ? (RECORD ? {} : JSON.parse(readFileSync(ANSWERS_FILE, 'utf8'))) : null;
    let testName = '';
    let asked = 0;
    beforeEach((context) => {
      testName = context.task.name;
      asked = 0;
    });
    afterAll(() => {
      if (!RECORD || !fixed) return;
      // One answer a line: a changed answer is a changed line in the diff to review.
      const tests = Object.entries(fixed).map(([name, answers]) => `${JSON.stringify(name)}: [\n${answers.map((a) => JSON.stringify(a)).join(',\n')}\n]`);
      writeFileSync(ANSWERS_FILE, `{\n${tests.join(',\n')}\n}\n`);
    });

    /** The expected answer of `call`: the next fixed one on the fixture, else the reference's. */
    const expectedOf = async <T>(call: (c: Catalogue) => Promise<T>): Promise<T> => {
      if (!fixed) return call(reference);
      fixed[testName] ??= [];
      const answers = fixed[testName] as unknown[];
      const index = asked++;
      if (RECORD) {
        const value = await call(reference);
        answers[index] = asStored(value);
        return value;
      }
      if (index >= answers.length) throw new Error(`fixture-answers.json has no answer #${index} of "${testName}"`);
      return answers[index] as T;
    };

    beforeAll(async () => {
      built = await build(data);
      catalogue = built.catalogue;
    });
    afterAll(async () => {
      await built?.close();
    });

    const same = async <T>(call: (c: Catalogue) => Promise<T>) => {
      const expected = await expectedOf(call);
      const actual = await call(catalogue);
      if (fixed) expect(asStored(actual)).toEqual(expected);
      else expect(actual).toEqual(expected);
      return actual;
    };

    const words = [...new Set(probes.names.flatMap((n) => n.split(/\s+/)).filter((w) => w.length > 1))].slice(0, 8);

    it('search: text, types, filters and scores equal the expected answers', async () => {
      for (const q of [
        null,
        '',
        'nova',
        'NOVA d',
        'björk nova',
        'bjork',
        'moments in time',
        'moments in ti',
        'vince watson',
        'vince watson moments',
        'full',
        '808',
        'zzzz',
        'nova zzzz',
        'zzzz time moments',
        'electronic nova',
        ...words,
      ]) {
        await same((c) => c.search(searchQuery(q), {}));
        for (const type of ['master', 'artist', 'label', 'festival'] as const) await same((c) => c.search(searchQuery(q, { type }), {}));
      }
      // the same bytes, too: a hit's keys (and its credits' keys) in the expected order
      for (const q of ['nova', 'vince watson', null]) {
        const expected = await expectedOf((c) => c.search(searchQuery(q), {}));
        const actual = await catalogue.search(searchQuery(q), {});
        expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
      }
      const filters: SearchQuery['filters'][] = [
        { genre: ['electronic'] },
        { genre: ['ELECTRONIC', 'Rock'] },
        { style: ['ambient'] },
        { format: ['vinyl'] },
        { country: ['is'] },
        { label: ['nova records'] },
        { label: ['nova-dub'] },
        { label: ['self-released'] },
        { year_from: 2002, year_to: 2025 },
        { year_to: 2001 },
        { genre: ['Electronic'], style: ['Dub'] },
      ];
      for (const f of filters) {
        await same((c) => c.search(searchQuery(null, { filters: f }), {}));
        await same((c) => c.search(searchQuery('nova', { filters: f }), {}));
        await same((c) => c.search(searchQuery('nova zzzz', { filters: f }), {}));
      }
    });

    it('search: keyset pages join to the full ordered list without duplicates', async () => {
      for (const q of [null, 'nova', 'nova zzzz']) {
        const full = await catalogue.search(searchQuery(q, { limit: 1_000_000 }), {});
        const pageSize = Math.max(2, Math.ceil(full.length / 12));
        const pages: SearchHitData[] = [];
        let after: SearchQuery['after'] = null;
        for (let guard = 0; guard < 500; guard++) {
          const page = await same((c) => c.search(searchQuery(q, { limit: pageSize, after }), {}));
          if (page.length === 0) break;
          pages.push(...page);
          const last = page[page.length - 1] as SearchHitData;
          after = { score: last.score, type: last.type, id: last.id };
        }
        expect(pages).toEqual(full);
        expect(new Set(pages.map((h) => `${h.type}:${h.id}`)).size).toBe(pages.length);
      }
    });

    // One-word queries on PostgreSQL read whole pages from search_terms (migration 0013) when
    // the word has enough of them: small limits and the data's most common words take that path.
    it('search: one-word pages at small limits, with filters, types and keyset pages, equal the expected answers', async () => {
      const counts = new Map<string, number>();
      for (const master of data.masters) for (const token of new Set(tokensOf(master.title))) counts.set(token, (counts.get(token) ?? 0) + 1);
      const common = [...counts]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 4)
        .map(([token]) => token);
      const genre = data.masters[0]?.genres[0];
      const style = data.masters[0]?.styles[0];
      const filters: SearchQuery['filters'][] = [
        {},
        ...(genre ? [{ genre: [genre] }] : []),
        ...(style ? [{ style: [style.toUpperCase()] }] : []),
        ...(genre && style ? [{ genre: [genre], style: [style] }] : []),
        { format: ['vinyl'] },
        { year_from: 1990, year_to: 2010 },
      ];
      // Two words with a style filter: PostgreSQL matches them through search_style_words (migration 0014).
      for (const f of filters) await same((c) => c.search(searchQuery(`${common[0]} ${common[1]?.slice(0, 3)}`, { filters: f }), {}));
      for (const f of filters) await same((c) => c.facets({ q: `${common[1]} ${common[0]}`, facets: ['genre', 'style', 'format'], filters: f, limit: 5 }, {}));
      for (const q of [...common, ...common.map((word) => word.slice(0, 2)), 'nova']) {
        for (const f of filters) await same((c) => c.facets({ q, facets: ['genre', 'style', 'year_from', 'label'], filters: f, limit: 3 }, {}));
        for (const limit of [1, 2, 5]) {
          for (const f of filters) await same((c) => c.search(searchQuery(q, { limit, filters: f }), {}));
          for (const type of ['master', 'artist'] as const) await same((c) => c.search(searchQuery(q, { limit, type }), {}));
        }
        const full = await same((c) => c.search(searchQuery(q, { limit: 1_000_000 }), {}));
        const pages: SearchHitData[] = [];
        let after: SearchQuery['after'] = null;
        for (let guard = 0; guard < 2_000; guard++) {
          const page = await same((c) => c.search(searchQuery(q, { limit: 3, after }), {}));
          if (page.length === 0) break;
          pages.push(...page);
          const last = page[page.length - 1] as SearchHitData;
          after = { score: last.score, type: last.type, id: last.id };
        }
        expect(pages).toEqual(full);
      }
    });

    it('facets: counts per value with q and filters equal the expected answers', async () => {
      const all = ['genre', 'style', 'format', 'country', 'year_from', 'year_to', 'label'] as const;
      for (const q of [null, 'nova', 'zzzz']) {
        for (const limit of [1, 2, 50]) await same((c) => c.facets({ q, facets: [...all], filters: {}, limit }, {}));
        await same((c) => c.facets({ q, facets: [...all], filters: { genre: ['electronic'], year_from: 2000 }, limit: 10 }, {}));
      }
    });

    it('masters, batches and master dossiers equal the expected answers', async () => {
      for (const id of probes.masters) {
        await same((c) => c.master(id, {}));
        await same((c) => c.masterDossier(id, {}));
      }
      const batch = [...probes.masters].reverse();
      const expected = await expectedOf((c) => c.masters([...batch, ...batch], {}));
      const actual = await catalogue.masters([...batch, ...batch], {});
      const byId = <T extends { master_id: number }>(list: T[]) => [...list].sort((a, b) => a.master_id - b.master_id);
      expect(byId(actual)).toEqual(byId(expected));
      // Batched master details, where offered, are each master's dossier record, releases and count.
      if (catalogue.masterDetails) {
        const details = await catalogue.masterDetails([...batch, 999_999_999, ...batch], {});
        expect(details.map((d) => d.master.master_id).sort((a, b) => a - b)).toEqual(byId(expected).map((m) => m.master_id));
        for (const detail of details) {
          const dossier = await expectedOf((c) => c.masterDossier(detail.master.master_id, {}));
          expect(detail).toEqual({ master: dossier?.master, releases: dossier?.releases, release_count: dossier?.release_count });
        }
      }
      // Serialized records, where offered, are byte for byte JSON.stringify of the parsed ones.
      if (catalogue.mastersJson) {
        const serialized = await catalogue.mastersJson([...batch, 999_999_999, ...batch], {});
        expect(byId(serialized)).toEqual(byId(actual).map((record) => ({ master_id: record.master_id, json: JSON.stringify(record) })));
      }
    });

    it('agents for every credit: each artist and label a record credits resolves by cluster_id, slug and Discogs id', async () => {
      const records = await catalogue.masters(
        data.masters.map((m) => m.master_id),
        {},
      );
      const credited = new Set<number>();
      for (const record of records) for (const ref of [...record.artists, ...record.labels]) credited.add(ref.cluster_id);
      for (const master of data.masters) for (const credit of master.artists) credited.add(A(credit.discogs_id));
      for (const release of data.releases) {
        for (const credit of [...release.artists, ...release.extra_artists]) credited.add(A(credit.discogs_id));
        for (const credit of release.labels) if (credit.discogs_id !== null) credited.add(L(credit.discogs_id));
      }
      for (const artist of data.artists)
        for (const ref of [...artist.aliases, ...artist.members, ...artist.groups]) if (ref.discogs_id !== null) credited.add(A(ref.discogs_id));
      for (const label of data.labels) for (const ref of [label.parent, ...label.sublabels]) if (ref?.discogs_id != null) credited.add(L(ref.discogs_id));
      for (const clusterId of credited) {
        const kind = clusterId % 4 === 1 ? 'artist' : 'label';
        const found = await same((c) => c.findAgent({ by: 'cluster_id', cluster_id: clusterId }, null, {}));
        expect(found, `cluster ${clusterId}`).not.toBeNull();
        expect(found?.slug).toMatch(/^[a-z0-9-]*[a-z][a-z0-9-]*$/);
        expect(await catalogue.findAgent({ by: 'slug', slug: found?.slug as string }, kind, {})).toEqual(found);
        await same((c) => c.resolve({ by: 'discogs', kind, id: Math.floor(clusterId / 4) }, {}));
      }
      for (const record of records) for (const ref of [...record.artists, ...record.labels]) expect(ref.slug).not.toBeNull();
    });

    it('findAgent, dossiers and resolve equal the expected answers', async () => {
      for (const id of [...probes.artists, ...probes.labels, ...probes.festivals]) {
        for (const kind of [null, 'artist', 'label', 'festival'] as const) await same((c) => c.findAgent({ by: 'cluster_id', cluster_id: id }, kind, {}));
        await same((c) => c.artistDossier(id, {}));
        await same((c) => c.labelDossier(id, {}));
        await same((c) => c.festivalDossier(id, {}));
        await same((c) => c.bandcampArtist(id, {}));
        await same((c) => c.bandcampReleases({ by: 'artist', cluster_id: id }, {}));
      }
      for (const id of probes.artists) {
        const identity = await expectedOf((c) => c.findAgent({ by: 'cluster_id', cluster_id: id }, null, {}));
        if (!identity) continue;
        await same((c) => c.findAgent({ by: 'slug', slug: identity.slug }, null, {}));
        await same((c) => c.findAgent({ by: 'slug', slug: identity.slug }, 'label', {}));
      }
      for (const artist of data.artists.slice(0, 12)) {
        await same((c) => c.findAgent({ by: 'discogs', id: artist.discogs_id }, null, {}));
        if (artist.mbid) {
          await same((c) => c.findAgent({ by: 'mbid', mbid: artist.mbid as string }, null, {}));
          await same((c) => c.resolve({ by: 'mbid', mbid: (artist.mbid as string).toUpperCase() }, {}));
        }
        if (artist.spotify_id) await same((c) => c.resolve({ by: 'spotify', id: artist.spotify_id as string }, {}));
      }
      for (const q of [...probes.names, 'björk nova', 'BJORK NOVA!', 'nova', 'vince', 'zzzz', '!!']) await same((c) => c.resolve({ by: 'q', q }, {}));
      for (const master of data.masters.slice(0, 6)) await same((c) => c.resolve({ by: 'discogs', kind: 'master', id: master.master_id }, {}));
      for (const label of data.labels.slice(0, 3)) await same((c) => c.resolve({ by: 'discogs', kind: 'label', id: label.discogs_id }, {}));
      for (const row of data.bandcamp.slice(0, 4)) {
        const host = new URL(row.url).hostname;
        await same((c) => c.resolve({ by: 'bandcamp', host: host.toUpperCase() }, {}));
        for (const release of row.releases.slice(0, 2)) await same((c) => c.bandcampReleases({ by: 'url', url: `${release.url}/` }, {}));
      }
    });

    it('Bandcamp manifest and signals equal the expected answers', async () => {
      for (const tag of [null, 'ambient', 'TECHNO', 'none-such']) {
        for (const after of [null, A(10)]) await same((c) => c.bandcampManifest({ tag, limit: 2, after }, {}));
        await same((c) => c.bandcampManifest({ tag, limit: 100, after: null }, {}));
      }
      for (const window of ['30d', '90d'] as const) {
        for (const genre of [null, 'electronic', 'Rock']) await same((c) => c.breakouts({ window, genre, limit: 50 }, {}));
        await same((c) => c.breakouts({ window, genre: null, limit: 1 }, {}));
      }
      for (const kind of [null, 'label', 'festival'] as const) {
        await same((c) => c.tastemakers({ kind, limit: 50 }, {}));
        await same((c) => c.tastemakers({ kind, limit: 1 }, {}));
      }
      for (const genre of [null, 'electronic']) await same((c) => c.onesToWatch({ genre, limit: 50 }, {}));
    });

    if (options.exactFixture) {
      it('serves the exact values of the hand-made fixture', async () => {
        const master = await catalogue.master(1, {});
        expect(master).toMatchObject({
          master_id: 1,
          title: 'Moments In Time',
          year: 2002,
          genres: ['Electronic'],
          styles: ['Techno', 'Tech House'],
          formats: ['Vinyl'],
          country: 'UK',
          released: '2002-03-00',
        });
        expect(master?.artists).toEqual([{ cluster_id: A(13), slug: 'vince-watson', name: 'Vince Watson', anv: null, join: null }]);
        expect(master?.labels).toEqual([{ cluster_id: L(102), slug: 'bio-rhythm', name: 'Bio Rhythm', catno: 'BIO 001' }]);
        expect(await catalogue.findAgent({ by: 'cluster_id', cluster_id: A(11) }, null, {})).toMatchObject({ slug: 'bjork-nova-11' });
        expect(await catalogue.findAgent({ by: 'slug', slug: 'bjork-nova' }, null, {})).toMatchObject({ cluster_id: A(10), name: 'Björk Nova' });
        expect(await catalogue.findAgent({ by: 'slug', slug: 'artist-808' }, 'artist', {})).toMatchObject({ cluster_id: A(12) });
        expect(await catalogue.findAgent({ by: 'slug', slug: 'full-width' }, null, {})).toMatchObject({ cluster_id: A(14) });
        const [top] = await catalogue.search(searchQuery('moments in time'), {});
        expect(top).toMatchObject({ type: 'master', id: 1 });
        expect(top?.score).toBeGreaterThanOrEqual(3);
        const labelled = await catalogue.search(searchQuery(null, { filters: { label: ['NOVA RECORDS'] } }), {});
        expect(labelled.map((h) => h.id).sort()).toEqual([2, 3, 6]);
        const facets = await catalogue.facets({ q: null, facets: ['genre'], filters: {}, limit: 1 }, {});
        expect(facets).toEqual({ total: 7, facets: { genre: [{ value: 'Electronic', count: 5 }] } });
        expect((await catalogue.resolve({ by: 'q', q: 'bjork nova' }, {}))?.cluster_id).toBe(A(10));
        expect((await catalogue.resolve({ by: 'discogs', kind: 'master', id: 3 }, {}))?.cluster_id).toBe(A(10));
        const breakouts = await catalogue.breakouts({ window: '30d', genre: null, limit: 10 }, {});
        expect(breakouts.as_of).toBe('2026-06-29');
        expect(breakouts.items.map((b) => b.cluster_id)).toContain(A(10));
      });
    }
  });
}
