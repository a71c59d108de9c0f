/**
 * The bulk load keys and indexes a table as soon as its files are in (issue 29, item 3): at
 * 4 M records the artists' slugs and indexes waited 120 s for the releases file, then the
 * whole apply() took 64 s after it. prepare() starts them while another file still loads;
 * apply() waits for them, and a kind whose table is being indexed takes no further file.
 */
import { beginBulkLoad, bulkLine, migrate } from '@catalogue/postgres';
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

const artist = (id: number, name: string) =>
  bulkLine(
    'artists',
    { discogs_id: id, name, real_name: null, profile: null, data_quality: null, name_variations: [], aliases: [], members: [], groups: [], urls: [] } as never,
    null,
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

/** The indexes PostgreSQL holds on `table`. */
async function indexesOn(table: string): Promise<string[]> {
  const rows = await db.sql<Array<{ name: string }>>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${table} ORDER BY indexname`;
  return rows.map((row) => row.name);
}

describe('bulk load: a table is prepared once its files are in', () => {
  it('keys, slugs and indexes a loaded table while another still loads; apply() swaps both in', async () => {
    const load = await beginBulkLoad(db.sql);
    await load.copy('artists', lines(artist(1, 'Same Name'), artist(2, 'Same Name'), artist(3, 'Other')));
    load.prepare('artists');
    // Before the releases are even loaded, import_artists gets the live table's key and indexes.
    const live = await indexesOn('artists');
    const deadline = Date.now() + 30_000;
    while ((await indexesOn('import_artists')).length < live.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await indexesOn('import_artists')).length).toBe(live.length);
    // The slugs of a first import are set before the indexes: the lowest id owns the base.
    const slugs = await db.sql<Array<{ id: number; slug: string }>>`SELECT discogs_id AS id, slug FROM import_artists ORDER BY discogs_id`;
    expect(slugs.map((row) => row.slug)).toEqual(['same-name', 'same-name-2', 'other']);

    // A file of a kind being indexed is refused, not appended under its indexes.
    await expect(load.copy('artists', lines(artist(4, 'Late')))).rejects.toThrow(/already being indexed/);

    await load.copy('releases', lines(release(10, 1), release(11, 3)));
    expect(await load.apply()).toBe(true);
    expect(await db.sql`SELECT discogs_id, slug FROM artists ORDER BY discogs_id`).toEqual([
      { discogs_id: 1, slug: 'same-name' },
      { discogs_id: 2, slug: 'same-name-2' },
      { discogs_id: 3, slug: 'other' },
    ]);
    // The release's link table was built beside its key and indexes.
    expect(await db.sql`SELECT artist_id, release_id FROM release_credits ORDER BY release_id`).toEqual([
      { artist_id: 1, release_id: 10 },
      { artist_id: 3, release_id: 11 },
    ]);
    expect(await db.sql`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'import\\_%'`).toEqual([{ n: 0 }]);
  });
});
