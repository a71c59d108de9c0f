/**
 * Queries with a style filter read the word + style entries (migrations 0014–0016, issue 14
 * item 3). Facets with q and a style filter count over the numbered values beside the word + style
 * entries (migrations 0015–0016, issue 14 item 3) once finish() has filled them: the same
 * answers as the live count over search_documents, which a pool sees while the codes are NULL
 * (a database migrated but not yet refreshed by finish()).
 */
import type { Catalogue, FacetName, FacetsQuery, SearchQuery } from '@catalogue/core';
import { tokensOf } from '@catalogue/core/catalogue';
import { connectPostgres, createPostgresCatalogue, createPostgresWriter } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogue } from '../../packages/importer/src/generate/generate.js';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';

let db: TestDatabase;
// The demo generator's catalogue at a size where a word + style holds tens of masters.
const data = generateCatalogue({ scale: { artists: 200, labels: 30, festivals: 4, masters: 800, bandcampArtists: 20 } });
// Every third master names its first genre, style and format twice: a master counts a value
// once (the DISTINCT of live counting), however often its arrays hold it.
for (const [i, master] of data.masters.entries()) {
  if (i % 3 !== 0) continue;
  if (master.genres[0]) master.genres.push(master.genres[0]);
  if (master.styles[0]) master.styles.push(master.styles[0]);
}
for (const [i, release] of data.releases.entries()) {
  if (i % 3 !== 0) continue;
  if (release.formats[0]) release.formats.push(release.formats[0]);
  if (release.labels[0]) release.labels.push(release.labels[0]);
}

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 2 });
  await loadCatalogue(db, data);
}, 180_000);

afterAll(async () => {
  await db?.drop();
});

const ALL: FacetName[] = ['genre', 'style', 'format', 'country', 'year_from', 'year_to', 'label'];

function queries(): FacetsQuery[] {
  const counts = new Map<string, number>();
  for (const master of data.masters) for (const token of new Set(tokensOf(master.title))) counts.set(token, (counts.get(token) ?? 0) + 1);
  const words = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([token]) => token);
  const out: FacetsQuery[] = [];
  for (const master of data.masters.slice(0, 12)) {
    const style = master.styles[0];
    if (!style) continue;
    const word = tokensOf(master.title)[0] ?? words[0] ?? 'a';
    for (const q of [word, word.slice(0, 2), `${words[0]} ${word}`, words[1] ?? word]) {
      const genre = master.genres[0] ?? 'Rock';
      const filters_ = [
        { style: [style] },
        { style: [style.toUpperCase()], genre: [genre] },
        { style: [style], genre: [genre.toLowerCase(), 'Jazz'] },
        { style: [style, 'techno'] },
        { style: [style, style.toLowerCase()] },
      ];
      for (const filters of filters_) {
        for (const limit of [1, 3, 50]) out.push({ q, facets: ALL, filters, limit });
      }
    }
  }
  return out;
}

describe('facets over numbered values (search_style_words.codes)', () => {
  it('answer as the live count, which a database without codes falls back to', async () => {
    const [{ n }] = (await db.sql`SELECT count(*)::int AS n FROM search_style_words WHERE codes IS NULL`) as unknown as [{ n: number }];
    expect(n).toBe(0);
    const byCodes = createPostgresCatalogue(db.sql);
    const asked = queries();
    expect(asked.length).toBeGreaterThan(100);
    const expected = [];
    for (const query of asked) expected.push(await byCodes.facets(query, {}));
    expect(Math.max(...expected.map((answer) => answer.total))).toBeGreaterThan(5);

    await db.sql`UPDATE search_style_words SET codes = NULL`;
    // A new pool: the "filled" answer is kept per pool.
    const sql = connectPostgres(db.url, { max: 1 });
    try {
      const live = createPostgresCatalogue(sql);
      for (const [i, query] of asked.entries()) expect(await live.facets(query, {})).toEqual(expected[i]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

describe('facet tables and documents change together (finish() swaps them in one transaction)', () => {
  it('no reader sees the new documents with the previous facet state, or the reverse', async () => {
    const before = data.masters.length;
    const writer = createPostgresWriter(db.sql, { pageSize: 50, derivedThreads: 0 });
    // The test above emptied the codes: a complete state first.
    await writer.finish({ force: true });
    // Another import: 200 more masters (copies under new ids), then finish().
    const added = data.masters.slice(0, 200).map((master, i) => ({ ...master, master_id: 5_000_000 + i }));
    await writer.writeMasters(added);
    const reader = connectPostgres(db.url, { max: 1 });
    const seen: Array<{ state: number; documents: number; codes: boolean }> = [];
    let finished = false;
    // One statement, one snapshot: the facet state, the master documents and the style words' codes.
    const poll = (async () => {
      while (!finished) {
        const [row] = await reader<Array<{ state: number; documents: number; codes: boolean }>>`
          SELECT (SELECT masters FROM facet_state) AS state,
                 (SELECT count(*)::int FROM search_documents WHERE kind = 0) AS documents,
                 NOT EXISTS (SELECT 1 FROM search_style_words WHERE codes IS NULL) AS codes`;
        if (row) seen.push(row);
      }
    })();
    try {
      await writer.finish();
    } finally {
      finished = true;
      await poll;
      await reader.end({ timeout: 5 });
    }
    expect(seen[0]?.documents).toBe(before);
    expect(seen.at(-1)?.documents).toBe(before + added.length);
    expect(seen.length).toBeGreaterThan(20);
    expect(seen.filter((row) => row.state !== row.documents || !row.codes)).toEqual([]);
  });
});

describe('one-word search with a style filter: ranked entries first or the few candidates scored at once', () => {
  it('answers the same whichever it does', async () => {
    const counts = new Map<string, number>();
    for (const master of data.masters) for (const token of new Set(tokensOf(master.title))) counts.set(token, (counts.get(token) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([token]) => token);
    const queries: SearchQuery[] = [];
    for (const master of data.masters.slice(0, 10)) {
      const style = master.styles[0];
      if (!style) continue;
      for (const q of [tokensOf(master.title)[0] ?? 'a', common[0] ?? 'a', common[3] ?? 'a', (common[0] ?? 'ab').slice(0, 2)]) {
        for (const filters of [{ style: [style] }, { style: [style.toUpperCase()], genre: master.genres.slice(0, 1) }, { style: [style, 'techno'] }]) {
          for (const limit of [1, 3, 21]) queries.push({ q, type: 'master', filters, limit, after: null });
        }
      }
    }
    // Never scored at once (the ranked entries always read first), the default, always at once.
    const [ranked, byDefault, direct] = [0, undefined, 1_000_000].map((directScoringBelow) =>
      createPostgresCatalogue(db.sql, directScoringBelow === undefined ? {} : { directScoringBelow }),
    ) as [Catalogue, Catalogue, Catalogue];
    let fullRankedPages = 0;
    for (const query of queries) {
      const expected = await ranked.search(query, {});
      if (expected.length === query.limit) fullRankedPages++;
      expect(await byDefault.search(query, {})).toEqual(expected);
      expect(await direct.search(query, {})).toEqual(expected);
      // The next page too (keyset cursor after the last hit).
      const last = expected.at(-1);
      if (last) {
        const after = { ...query, after: { score: last.score, type: last.type, id: last.id } };
        expect(await direct.search(after, {})).toEqual(await ranked.search(after, {}));
      }
    }
    expect(queries.length).toBeGreaterThan(300);
    expect(fullRankedPages).toBeGreaterThan(50);
  });
});
