/**
 * A corrected one-word query paged from search_terms (issue 29; packages/postgres/src/catalogue/
 * search.ts, topByCorrections): on the demo generator's catalogue, where every title word is in
 * tens of documents, typos of its words are corrected to words with many rows, and every page —
 * the first and the next ones by cursor, across the top level and below it, with no filter, a
 * type, a genre, a style and both — is the memory catalogue's page, scores and corrections
 * included (core's search.ts, "Typos"). Some pages must come from the ranked path.
 */
import type { CatalogueData, SearchPage, SearchQuery } from '@catalogue/core';
import { tokensOf } from '@catalogue/core/catalogue';
import { createMemoryCatalogue } from '@catalogue/core/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogue } from '../../packages/importer/src/generate/generate.js';
import type { Reader } from '../../packages/postgres/src/catalogue/reader.js';
import { type PrefixHint, rowCursorOf, searchPageOf } from '../../packages/postgres/src/catalogue/search.js';
import { VocabularyHint } from '../../packages/postgres/src/catalogue/vocabulary-hint.js';
import { connectPostgres } from '../../packages/postgres/src/connect.js';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';

const data: CatalogueData = generateCatalogue({ scale: { artists: 200, labels: 30, festivals: 4, masters: 800, bandcampArtists: 20 } });

/** One edit in the middle of `word`, as bench/catalogue/targets.ts types them: a transposition, a deletion, a substitution. */
function typosOf(word: string): string[] {
  const middle = Math.floor(word.length / 2);
  return [
    word.slice(0, middle - 1) + word[middle] + word[middle - 1] + word.slice(middle + 1),
    word.slice(0, middle) + word.slice(middle + 1),
    word.slice(0, middle) + (word[middle] === 'q' ? 'x' : 'q') + word.slice(middle + 1),
  ];
}

let db: TestDatabase;
/** The statements sent, as their template text. */
const sent: string[] = [];
const read: Reader = (_abort, build) => {
  const query = build();
  sent.push((query as unknown as { strings: readonly string[] }).strings.join('?'));
  return query;
};

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 2 });
  await loadCatalogue(db, data, null);
}, 180_000);

afterAll(async () => {
  await db?.drop();
});

describe('a corrected one-word query on PostgreSQL', () => {
  it('maps a cursor on the top level to its search_terms row score, and no other', () => {
    const popularity = Math.round((Math.log10(1 + 7) / 10) * 1_000_000) / 1_000_000;
    expect(rowCursorOf({ score: 131_081 + popularity, type: 'master', id: 3 })).toEqual({ score: 1033 + popularity, kind: 0, id: 3 });
    expect(rowCursorOf({ score: 131_085 + popularity, type: 'artist', id: 5 })).toEqual({ score: 1037 + popularity, kind: 1, id: 5 });
    expect(rowCursorOf({ score: 131_080 + popularity, type: 'master', id: 3 })).toBeNull();
    expect(rowCursorOf({ score: 131_081 + 1e-9, type: 'master', id: 3 })).toBeNull();
    expect(rowCursorOf({ score: 1033.5, type: 'master', id: 3 })).toBeNull();
  });

  it('pages as the memory catalogue does, some pages from the corrections’ search_terms rows', async () => {
    const memory = createMemoryCatalogue(data);
    const counts = new Map<string, number>();
    for (const master of data.masters)
      for (const token of new Set(tokensOf(master.title))) if (token.length >= 5) counts.set(token, (counts.get(token) ?? 0) + 1);
    const words = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
    const master = data.masters.find((row) => row.genres.length > 0 && row.styles.length > 0);
    const genre = master?.genres[0] as string;
    const style = master?.styles[0] as string;
    const shapes: Array<Pick<SearchQuery, 'type' | 'filters'>> = [
      { type: 'all', filters: {} },
      { type: 'master', filters: {} },
      { type: 'artist', filters: {} },
      { type: 'all', filters: { genre: [genre] } },
      { type: 'all', filters: { style: [style] } },
      { type: 'all', filters: { genre: [genre], style: [style] } },
    ];
    let corrected = 0;
    let ranked = 0;
    let pages = 0;
    for (const word of words.slice(0, 12)) {
      for (const q of typosOf(word)) {
        for (const shape of shapes) {
          let after: SearchQuery['after'] = null;
          for (let n = 0; n < 4; n++) {
            const query: SearchQuery = { q, limit: 6, after, ...shape };
            const expected = (await memory.searchPage?.(query, {})) as SearchPage;
            sent.length = 0;
            const page = await searchPageOf(db.sql, read, query);
            expect(page, `${q} ${JSON.stringify(shape)} page ${n + 1}`).toEqual(expected);
            // The page came from the ranked path when its statement was the last one sent.
            if (sent.at(-1)?.includes('WITH found AS MATERIALIZED')) ranked++;
            // The rows read first under a style filter too (never the few word + style entries scored at
            // once), and each correction's rows cut after 3: a cut correction bounds the page (or the query is scored).
            expect(await searchPageOf(db.sql, read, query, undefined, 0), `${q} ${JSON.stringify(shape)} page ${n + 1}, ranked`).toEqual(expected);
            expect(await searchPageOf(db.sql, read, query, undefined, 0, 3), `${q} ${JSON.stringify(shape)} page ${n + 1}, cut`).toEqual(expected);
            pages++;
            if (Object.keys(page.corrected).length > 0) corrected++;
            const last = page.hits.at(-1);
            if (page.hits.length < query.limit || !last) break;
            after = { score: last.score, type: last.type, id: last.id };
          }
        }
      }
    }
    expect(corrected).toBeGreaterThan(pages / 4);
    expect(ranked).toBeGreaterThan(20);
  }, 300_000);
});

describe('a typo’s first page with the process’s filter of the vocabulary (vocabulary-hint.ts)', () => {
  it('is the same page in fewer statements; a filter that is wrong about every word changes no page', async () => {
    const memory = createMemoryCatalogue(data);
    const hint = new VocabularyHint(db.sql, null);
    await hint.loaded;
    expect(hint.filter).not.toBeNull();
    // A filter of another generation at its worst: no word of the catalogue is in it.
    const wrong: PrefixHint = { mayPrefix: (word) => word.length < 5 };
    const counts = new Map<string, number>();
    for (const master of data.masters)
      for (const token of new Set(tokensOf(master.title))) if (token.length >= 5) counts.set(token, (counts.get(token) ?? 0) + 1);
    const words = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
    const master = data.masters.find((row) => row.genres.length > 0 && row.styles.length > 0);
    const shapes: Array<Pick<SearchQuery, 'type' | 'filters'>> = [
      { type: 'all', filters: {} },
      { type: 'artist', filters: {} },
      { type: 'all', filters: { genre: [master?.genres[0] as string], style: [master?.styles[0] as string] } },
    ];
    let without = 0;
    let withHint = 0;
    let typos = 0;
    const picked = [...words.slice(0, 8), ...words.slice(-4)];
    const queries = [...picked.flatMap(typosOf), ...picked, `${picked[0]} ${typosOf(picked[1] as string)[0]}`, `zzqqx ${picked[2]}`];
    for (const q of queries) {
      for (const shape of shapes) {
        const query: SearchQuery = { q, limit: 6, after: null, ...shape };
        const expected = (await memory.searchPage?.(query, {})) as SearchPage;
        sent.length = 0;
        expect(await searchPageOf(db.sql, read, query), `${q} ${JSON.stringify(shape)}`).toEqual(expected);
        const before = sent.length;
        sent.length = 0;
        expect(await searchPageOf(db.sql, read, query, undefined, undefined, undefined, hint), `${q} ${JSON.stringify(shape)}, hinted`).toEqual(expected);
        const after = sent.length;
        expect(await searchPageOf(db.sql, read, query, undefined, undefined, undefined, wrong), `${q} ${JSON.stringify(shape)}, wrong hint`).toEqual(expected);
        if (!tokensOf(q).some((token) => token.length >= 5 && !hint.mayPrefix(token))) expect(after, `${q}: not hinted`).toBe(before);
        else {
          typos++;
          expect(after, `${q} ${JSON.stringify(shape)}: statements`).toBeLessThan(before);
        }
        without += before;
        withHint += after;
      }
    }
    expect(typos).toBeGreaterThan(queries.length);
    expect(withHint).toBeLessThan(without);
  }, 300_000);
});

describe('the filter of the vocabulary when PostgreSQL does not answer its load', () => {
  it('keeps no filter, says "may" for every word and logs the failure; search answers as without it', async () => {
    const logged: Array<Record<string, unknown>> = [];
    // A port nothing listens on: the load's first statement fails (connection refused).
    const away = connectPostgres('postgres://postgres@127.0.0.1:1/none', { max: 1 });
    const hint = new VocabularyHint(away, null, { logger: { log: (line) => logged.push(line as Record<string, unknown>) } });
    await hint.loaded;
    expect(hint.filter).toBeNull();
    expect(hint.mayPrefix('zzqqxx')).toBe(true);
    expect(logged.map((line) => line.kind)).toEqual(['catalogue.typo_hint_failed']);
    const word = tokensOf((data.masters[0] as { title: string }).title).find((token) => token.length >= 5) ?? 'music';
    const query: SearchQuery = { q: typosOf(word)[0] as string, type: 'all', filters: {}, limit: 6, after: null };
    expect(await searchPageOf(db.sql, read, query, undefined, undefined, undefined, hint)).toEqual(await searchPageOf(db.sql, read, query));
    await away.end({ timeout: 1 });
  });
});
