/**
 * Facets with q and a style filter count over master_facets' numbered values (migration 0015,
 * issue 14 item 3) once finish() has filled them: the same answers as the live count over
 * search_documents, which a pool sees while master_facets is empty.
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
      for (const filters of [{ style: [style] }, { style: [style.toUpperCase()], genre: master.genres.slice(0, 1) }, { style: [style, 'techno'] }]) {
        for (const limit of [1, 3, 50]) out.push({ q, facets: ALL, filters, limit });
      }
    }
  }
  return out;
}

describe('facets over numbered values (master_facets)', () => {
  it('answer as the live count, which an empty master_facets falls back to', async () => {
    const [{ n }] = (await db.sql`SELECT count(*)::int AS n FROM master_facets`) as unknown as [{ n: number }];
    expect(n).toBe(data.masters.length);
    const byCodes = createPostgresCatalogue(db.sql);
    const asked = queries();
    expect(asked.length).toBeGreaterThan(100);
    const expected = [];
    for (const query of asked) expected.push(await byCodes.facets(query, {}));
    expect(Math.max(...expected.map((answer) => answer.total))).toBeGreaterThan(5);

    await db.sql`DELETE FROM master_facets`;
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
