/**
 * A first bulk import on PostgreSQL (issue 29, item 3): an agent is loaded with its slug base as
 * its slug and only the rows whose base a lower id holds are rewritten (an UPDATE of every row
 * took 16.5 s of artists at 4 M records and left half their heap dead); the link table is
 * built beside the key and indexes, from the rows the key kept; every table swapped in arrives
 * with its statistics (finish()'s first joins ran on none: links took 15.2 s at 4 M records
 * instead of 2.8, a hash of every release where 1,292 index probes did).
 */
import { beginBulkLoad, bulkLine, migrate, type SlugBasesSeen } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createPostgresDatabase();
  await migrate(db.sql);
});

afterAll(async () => {
  await db?.drop();
});

const artist = (id: number, name: string, bases?: SlugBasesSeen) =>
  bulkLine(
    'artists',
    { discogs_id: id, name, real_name: null, profile: null, data_quality: null, name_variations: [], aliases: [], members: [], groups: [], urls: [] } as never,
    null,
    bases,
  );
const release = (id: number, artistId: number) =>
  bulkLine(
    'releases',
    {
      release_id: id,
      master_id: null,
      is_main_release: false,
      title: `Release ${id}`,
      released: '2001',
      artists: [{ discogs_id: artistId, name: 'A' }],
      extra_artists: [{ discogs_id: artistId, name: 'A' }],
      labels: [],
      formats: [],
      genres: [],
      styles: [],
    } as never,
    null,
  );

async function* lines(...texts: string[]): AsyncGenerator<string> {
  yield* texts;
}

describe('bulk load: a first import', () => {
  it('renames only the agents whose slug base a lower id holds, and builds the link table', async () => {
    const load = await beginBulkLoad(db.sql);
    await load.copy('artists', lines(artist(1, 'Same Name'), artist(2, 'Same Name'), artist(3, 'Other'), artist(4, 'same  name!')));
    await load.copy('releases', lines(release(10, 1), release(11, 3)));
    expect(await load.apply()).toBe(true);
    // The lowest id owns the base; the others get `${base}-${id}` (core's assignSlugs).
    expect(await db.sql`SELECT discogs_id, slug FROM artists ORDER BY discogs_id`).toEqual([
      { discogs_id: 1, slug: 'same-name' },
      { discogs_id: 2, slug: 'same-name-2' },
      { discogs_id: 3, slug: 'other' },
      { discogs_id: 4, slug: 'same-name-4' },
    ]);
    // The owners are the rows COPY wrote (one transaction id); only the renamed rows are new
    // versions, written by the slugs' UPDATE.
    const versions = await db.sql<Array<{ id: number; xmin: string }>>`SELECT discogs_id AS id, xmin::text FROM artists ORDER BY discogs_id`;
    const loadedBy = versions.find((row) => row.id === 1)?.xmin;
    expect(versions.filter((row) => row.xmin === loadedBy).map((row) => row.id)).toEqual([1, 3]);
    // The release's link table, built beside its key and indexes.
    expect(await db.sql`SELECT artist_id, release_id FROM release_credits ORDER BY release_id`).toEqual([
      { artist_id: 1, release_id: 10 },
      { artist_id: 3, release_id: 11 },
    ]);
    expect(await db.sql`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'import\\_%'`).toEqual([{ n: 0 }]);
  });

  it('swaps in every table with its statistics, so the joins finish() runs first are planned on them', async () => {
    await db.sql`TRUNCATE artists, releases, release_credits CASCADE`;
    const load = await beginBulkLoad(db.sql);
    await load.copy('artists', lines(...Array.from({ length: 50 }, (_, i) => artist(i + 1, `Artist ${i + 1}`))));
    await load.copy('releases', lines(...Array.from({ length: 200 }, (_, i) => release(100 + i, (i % 50) + 1))));
    expect(await load.apply()).toBe(true);
    const analyzed = await db.sql<Array<{ table: string; rows: number; columns: number }>>`
      SELECT c.relname AS table, c.reltuples::int AS rows, (SELECT count(*)::int FROM pg_stats s WHERE s.schemaname = 'public' AND s.tablename = c.relname) AS columns
      FROM pg_class c WHERE c.relname IN ('artists', 'releases', 'release_credits') AND c.relkind = 'r' ORDER BY c.relname`;
    expect(analyzed).toEqual([
      { table: 'artists', rows: 50, columns: expect.any(Number) },
      { table: 'release_credits', rows: 200, columns: expect.any(Number) },
      { table: 'releases', rows: 200, columns: expect.any(Number) },
    ]);
    for (const { table, columns } of analyzed) expect(columns, table).toBeGreaterThan(0);
  });

  it("keeps the reader's right guesses of slugs as loaded and rewrites only the wrong ones", async () => {
    await db.sql`TRUNCATE artists, releases, release_credits CASCADE`;
    // The reader's guesses: 'seen' for ids 11 and 13 (right: 10 owns the base), for 20 (wrong:
    // a false "seen", 20 owns its base) and not for 32 (wrong: an unsorted file, 31 comes after it).
    const guess = (seen: boolean): SlugBasesSeen => ({ seen: () => seen });
    const load = await beginBulkLoad(db.sql);
    await load.copy(
      'artists',
      lines(
        artist(10, 'Shared', guess(false)),
        artist(11, 'Shared', guess(true)),
        artist(13, 'shared!', guess(true)),
        artist(20, 'Alone', guess(true)),
        artist(32, 'Late', guess(false)),
        artist(31, 'Late', guess(true)),
      ),
    );
    expect(await load.apply()).toBe(true);
    const rows = await db.sql<Array<{ id: number; slug: string; xmin: string }>>`SELECT discogs_id AS id, slug, xmin::text FROM artists ORDER BY discogs_id`;
    expect(rows.map(({ id, slug }) => ({ id, slug }))).toEqual([
      { id: 10, slug: 'shared' },
      { id: 11, slug: 'shared-11' },
      { id: 13, slug: 'shared-13' },
      { id: 20, slug: 'alone' },
      { id: 31, slug: 'late' },
      { id: 32, slug: 'late-32' },
    ]);
    const loadedBy = rows.find((row) => row.id === 10)?.xmin;
    expect(rows.filter((row) => row.xmin !== loadedBy).map((row) => row.id)).toEqual([20, 31, 32]);
  });
});
