/**
 * Facets with q and a style filter count over the numbered values beside the word + style
 * entries (migrations 0015–0016, issue 14 item 3) once finish() has filled them: the same
 * answers as the live count over search_documents, which a pool sees while the codes are NULL
 * (a database migrated but not yet refreshed by finish()).
 */
import type { FacetName, FacetsQuery } from '@catalogue/core';
import { tokensOf } from '@catalogue/core/catalogue';
import { connectPostgres, createPostgresCatalogue } from '@catalogue/postgres';
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
