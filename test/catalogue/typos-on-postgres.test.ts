/**
 * Typo tolerance on PostgreSQL (issue 29; migration 0018, packages/postgres/src/catalogue/
 * typos.ts): finish() rebuilds the vocabulary, so a word an import brings is a correction
 * after that import; both search routes say what they corrected; bad input never answers 500
 * nor takes long; the embedded default (PGlite, its pg_trgm) corrects alike.
 */
import type { CatalogueData, MasterRow } from '@catalogue/core';
import { TRIGRAM_THRESHOLD } from '@catalogue/core/catalogue';
import { createMemoryCatalogue } from '@catalogue/core/memory';
import {
  type CatalogueGeneration,
  createPostgresAccounts,
  createPostgresCatalogue,
  createPostgresWriter,
  VocabularyHint,
  watchCatalogueGeneration,
} from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { trigramSimilarity, trigramsOf } from '../../packages/core/src/catalogue/typos.js';
import { createPgliteDatabase, createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';
import { type StoreService, serviceOn } from '../support/stores.js';

/** A master of the fixture, renamed: a word no other row holds. */
function newMaster(data: CatalogueData, id: number, title: string): MasterRow {
  const model = data.masters[0] as MasterRow;
  return { ...model, master_id: id, title, main_release_id: null };
}

interface SearchBody {
  hits: Array<{ type: string; id: number; name: string }>;
  corrected: Record<string, string>;
  next_cursor: string | null;
}

describe('typo tolerance on PostgreSQL', () => {
  let db: TestDatabase;
  let store: StoreService;
  let generation: CatalogueGeneration;
  let hint: VocabularyHint;
  const data = fixtureData();

  beforeAll(async () => {
    db = await createPostgresDatabase();
    await loadCatalogue(db, data);
    // As a host wires it: the filter of the vocabulary, loaded again at each generation.
    generation = watchCatalogueGeneration(db.sql);
    await generation.ready;
    hint = new VocabularyHint(db.sql, generation);
    await hint.loaded;
    store = await serviceOn(createPostgresCatalogue(db.sql, { vocabularyHint: hint }), createPostgresAccounts(db.sql));
  }, 120_000);

  afterAll(async () => {
    hint?.close();
    await generation?.close();
    await db?.drop();
  });

  const search = async (path: string): Promise<SearchBody> => {
    const response = await store.fetch(path, { headers: { 'x-api-key': store.key } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as SearchBody;
  };

  it('holds the catalogue’s distinct words of 4+ characters, with the documents holding each', async () => {
    const rows = await db.sql<Array<{ word: string; documents: number }>>`SELECT word, documents FROM search_vocabulary ORDER BY word`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.word.length >= 4 && /^[a-z0-9]+$/.test(row.word) && row.documents > 0)).toBe(true);
    const [techno] = await db.sql<Array<{ documents: number }>>`SELECT documents FROM search_vocabulary WHERE word = 'techno'`;
    const [counted] = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM search_documents WHERE 'techno' = ANY(tokens)`;
    expect(techno?.documents).toBe(counted?.n);
  });

  it('pg_trgm computes the similarity core computes for the memory catalogue', async () => {
    const pairs = [
      ['watsn', 'watson'],
      ['hosue', 'house'],
      ['persuadr', 'persuader'],
      ['a1b2c3', 'a1b2c'],
      ['zzzzzz', 'zzzzz'],
      ['theodrakiss', 'theodorakis'],
      ['bexgqeath', 'bexgreath'],
      ['experiense', 'experience'],
    ] as const;
    for (const [a, b] of pairs) {
      // `%` at core's threshold, as typos.ts sets it for its statement.
      const [row] = await db.sql.begin(async (tx) => {
        await tx`SELECT set_config('pg_trgm.similarity_threshold', ${String(TRIGRAM_THRESHOLD)}, true)`;
        return tx<Array<{ similarity: number; similar: boolean }>>`SELECT similarity(${a}, ${b}) AS similarity, ${a} % ${b} AS similar`;
      });
      const own = trigramSimilarity(trigramsOf(a), trigramsOf(b));
      expect(row?.similarity, `${a} ${b}`).toBeCloseTo(own, 6);
      expect(row?.similar, `${a} ${b}`).toBe(own >= TRIGRAM_THRESHOLD);
    }
  });

  // Migration 0019: a one-edit word is looked up by its deletions (typos.ts), not by its variants
  // as the memory catalogue does; both must find the same corrections, whatever the edit.
  it('a one-edit typo of every shape is corrected as the memory catalogue corrects it, pages and all', async () => {
    const memory = createMemoryCatalogue(data);
    const postgres = createPostgresCatalogue(db.sql);
    const hinted = createPostgresCatalogue(db.sql, { vocabularyHint: hint });
    const words = (await db.sql<Array<{ word: string }>>`SELECT word FROM search_vocabulary WHERE length(word) BETWEEN 5 AND 8 ORDER BY word`).map(
      (row) => row.word,
    );
    expect(words.length).toBeGreaterThan(10);
    let seed = 29;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const shapes = {
      insertion: (w: string, i: number) => w.slice(0, i) + 'qxz'[random(3)] + w.slice(i),
      deletion: (w: string, i: number) => w.slice(0, i) + w.slice(i + 1),
      substitution: (w: string, i: number) => w.slice(0, i) + (w[i] === 'e' ? 'a' : 'e') + w.slice(i + 1),
      transposition: (w: string, i: number) => (i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w),
    };
    let corrected = 0;
    let asked = 0;
    for (const word of words) {
      for (const [shape, typo] of Object.entries(shapes)) {
        for (let position = 0; position < word.length; position++) {
          const q = typo(word, position);
          if (q.length < 5 || q === word) continue;
          asked++;
          const query = { q, type: 'all' as const, filters: {}, limit: 10, after: null };
          const page = await memory.searchPage?.(query, {});
          expect(await postgres.searchPage?.(query, {}), `${shape}: ${word} typed ${q}`).toEqual(page);
          expect(await hinted.searchPage?.(query, {}), `${shape}: ${word} typed ${q}, the filter of the vocabulary`).toEqual(page);
          if (Object.keys(page?.corrected ?? {}).length > 0) corrected++;
        }
      }
    }
    // Most typos of a catalogue word are corrected (a typo may be a catalogue word itself).
    expect(corrected).toBeGreaterThan(asked / 2);
  });

  it('a word an import brings is corrected to after that import’s finish(), on v1 and v2', async () => {
    const before = await search('/api/v1/search?q=zorblefux');
    expect(before).toMatchObject({ hits: [], corrected: {} });
    expect(hint.mayPrefix('zorbleflux')).toBe(false);

    const writer = createPostgresWriter(db.sql, { staging: db.staging });
    await writer.writeMasters([newMaster(data, 990_001, 'Zorbleflux Nights')]);
    await writer.finish();
    const [row] = await db.sql<Array<{ documents: number }>>`SELECT documents FROM search_vocabulary WHERE word = 'zorbleflux'`;
    expect(row?.documents).toBe(1);
    // The process's filter learns the word from the generation's NOTIFY (until then, typos of it
    // are checked in the corrections' statement: the answers below hold either way).
    const afterFinish = search('/api/v1/search?q=zorbleflux');
    await vi.waitFor(() => expect(hint.mayPrefix('zorbleflux')).toBe(true), { timeout: 10_000, interval: 20 });
    expect((await afterFinish).hits[0]).toMatchObject({ id: 990_001 });

    for (const base of ['/api/v1', '/api/v2']) {
      const after = await search(`${base}/search?q=zorblefux`);
      expect(after.hits[0]).toMatchObject({ type: 'master', id: 990_001, name: 'Zorbleflux Nights' });
      expect(after.corrected).toEqual({ zorblefux: 'zorbleflux' });
      // A transposition is one edit; the last word still a prefix of the correction's words.
      expect((await search(`${base}/search?q=zorblfelux%20nig`)).corrected).toEqual({ zorblfelux: 'zorbleflux' });
      // Typed correctly: nothing corrected.
      const exact = await search(`${base}/search?q=zorbleflux`);
      expect(exact.hits[0]).toMatchObject({ id: 990_001 });
      expect(exact.corrected).toEqual({});
    }
  }, 120_000);

  it('ranks the hit that needed fewer corrections first, and pages a corrected query like any other', async () => {
    const writer = createPostgresWriter(db.sql, { staging: db.staging });
    await writer.writeMasters([newMaster(data, 990_002, 'Zorbleflax Nights'), newMaster(data, 990_003, 'Zorbleflux Daze')]);
    await writer.finish();
    // A prefix of a word as typed: no correction.
    const body = await search('/api/v1/search?q=zorblefla%20nights&type=master');
    expect(body).toMatchObject({ hits: [{ id: 990_002 }], corrected: {} });
    // "nigths" needs a correction in both; "zorbleflux" only in Zorbleflax Nights (2 against 1).
    const mixed = await search('/api/v1/search?q=zorbleflux%20nigths&type=master');
    expect(mixed.hits.map((hit) => hit.id)).toEqual([990_001, 990_002]);
    // Each word as the first hit of the page that needed it corrected matched it.
    expect(mixed.corrected).toEqual({ nigths: 'nights', zorbleflux: 'zorbleflax' });
    const paged = await search('/api/v1/search?q=zorbleflux%20nigths&type=master&limit=1');
    expect(paged.hits.map((hit) => hit.id)).toEqual([990_001]);
    const next = await search(`/api/v1/search?q=zorbleflux%20nigths&type=master&limit=1&cursor=${paged.next_cursor}`);
    expect(next.hits.map((hit) => hit.id)).toEqual([990_002]);
  }, 120_000);

  it('never answers 500 nor takes long on bad input: NULs, a very long word, 100 words, many typos', async () => {
    const queries = [
      'zorble%00flux',
      '%00%00%00',
      'z'.repeat(200),
      `${'zorblefuxx'.repeat(19)}zorbl`,
      Array.from({ length: 100 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('%20'),
      Array.from({ length: 33 }, () => 'zorbx').join('%20'),
      Array.from({ length: 18 }, () => 'zorblefuxx').join('%20'),
      encodeURIComponent('zörbléflüx ñíghtś 𝔷𝔬𝔯𝔟𝔩𝔢 ʇsǝʇ'),
    ];
    for (const q of queries) {
      const started = performance.now();
      const response = await store.fetch(`/api/v1/search?q=${q}`, { headers: { 'x-api-key': store.key } });
      expect([200, 400], q.slice(0, 40)).toContain(response.status);
      expect(performance.now() - started, q.slice(0, 40)).toBeLessThan(2_000);
      if (response.status === 200) {
        const body = (await response.json()) as SearchBody;
        // At most five words are corrected.
        expect(Object.keys(body.corrected).length).toBeLessThanOrEqual(5);
      } else await response.body?.cancel();
    }
  }, 120_000);
});

describe('typo tolerance on the embedded default (PGlite)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createPgliteDatabase();
    await loadCatalogue(db, fixtureData());
  }, 120_000);

  afterAll(async () => {
    await db?.drop();
  });

  it('corrects through pg_trgm as PostgreSQL does, and finish() refreshes its vocabulary', async () => {
    const catalogue = createPostgresCatalogue(db.sql);
    const query = (q: string) => ({ q, type: 'master' as const, filters: {}, limit: 5, after: null });
    expect((await catalogue.searchPage?.(query('zorblefux'), {}))?.corrected).toEqual({});
    const writer = createPostgresWriter(db.sql, { staging: db.staging });
    await writer.writeMasters([newMaster(fixtureData(), 990_001, 'Zorbleflux Nights')]);
    await writer.finish();
    const page = await catalogue.searchPage?.(query('zorblefux'), {});
    expect(page?.hits.map((hit) => hit.id)).toEqual([990_001]);
    expect(page?.corrected).toEqual({ zorblefux: 'zorbleflux' });
  }, 120_000);
});
