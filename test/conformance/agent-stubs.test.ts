/**
 * Agents for every credit on PostgreSQL and PGlite (docs/decisions.md §5): stubs do not depend
 * on import order (masters before the artists/labels dumps or after, each run ending in
 * finish()), a dump's row replaces its stub, and a re-import rewrites no row (xmin unchanged).
 */
import { type CatalogueData, clusterIdOf } from '@catalogue/core';
import { createMemoryCatalogue } from '@catalogue/core/memory';
import { createPostgresCatalogue, createPostgresWriter, migrate } from '@catalogue/postgres';
import { describe, expect, it } from 'vitest';
import { createPgliteDatabase, createPostgresDatabase, type TestDatabase } from './databases.js';
import { conformanceFixture } from './fixture.js';

type Part = 'artists' | 'labels' | 'masters' | 'releases' | 'festivals' | 'bandcamp';

async function load(db: TestDatabase, data: CatalogueData, parts: Part[]): Promise<void> {
  const writer = createPostgresWriter(db.sql, { staging: db.staging, pageSize: 3 });
  for (const part of parts) {
    if (part === 'artists') await writer.writeArtists(data.artists);
    if (part === 'labels') await writer.writeLabels(data.labels);
    if (part === 'masters') await writer.writeMasters(data.masters);
    if (part === 'releases') await writer.writeReleases(data.releases);
    if (part === 'festivals') await writer.writeFestivals(data.festivals);
    if (part === 'bandcamp') await writer.writeBandcamp(data.bandcamp);
  }
  await writer.finish();
}

async function agentRows(db: TestDatabase) {
  return db.sql<Array<{ kind: string; id: number; name: string; slug: string; stub: boolean; doc: unknown; xmin: string }>>`
    SELECT 'artist' AS kind, discogs_id AS id, name, slug, stub, doc, xmin::text AS xmin FROM artists
    UNION ALL SELECT 'label', discogs_id, name, slug, stub, doc, xmin::text FROM labels
    ORDER BY kind, id`;
}

const withoutXmin = (rows: Awaited<ReturnType<typeof agentRows>>) => rows.map(({ xmin: _xmin, ...row }) => row);

for (const [name, open] of [
  ['PostgreSQL', () => createPostgresDatabase()],
  ['PGlite', () => createPgliteDatabase()],
] as const) {
  describe(`agents for every credit: ${name}`, () => {
    it('masters alone give resolvable stubs; dumps after or before give the same agents; a re-import rewrites nothing', async () => {
      const data = conformanceFixture();
      const reference = createMemoryCatalogue(data);
      const late = await open();
      const early = await open();
      try {
        await migrate(late.sql);
        await migrate(early.sql);
        // masters and releases first: every credited agent is a stub that resolves
        await load(late, data, ['masters', 'releases']);
        const alone = createPostgresCatalogue(late.sql);
        const creditsOnly = createMemoryCatalogue({ ...data, artists: [], labels: [], festivals: [], bandcamp: [] });
        const first = data.masters[0]?.artists[0];
        expect(first).toBeDefined();
        const resolved = await alone.resolve({ by: 'discogs', kind: 'artist', id: first?.discogs_id as number }, {});
        expect(resolved).toMatchObject({ cluster_id: clusterIdOf('artist', first?.discogs_id as number), name: first?.name });
        expect(resolved).toEqual(await creditsOnly.resolve({ by: 'discogs', kind: 'artist', id: first?.discogs_id as number }, {}));
        expect((await alone.master(data.masters[0]?.master_id as number, {}))?.artists.every((a) => a.slug !== null)).toBe(true);
        expect((await agentRows(late)).every((row) => row.stub)).toBe(true);

        // then the dumps: their rows replace the stubs
        await load(late, data, ['artists', 'labels', 'festivals', 'bandcamp']);
        await load(early, data, ['artists', 'labels', 'festivals', 'bandcamp', 'masters', 'releases']);
        const rows = await agentRows(late);
        expect(withoutXmin(rows)).toEqual(withoutXmin(await agentRows(early)));
        for (const artist of data.artists) expect(rows.find((row) => row.kind === 'artist' && row.id === artist.discogs_id)?.stub).toBe(false);
        const catalogue = createPostgresCatalogue(late.sql);
        for (const master of data.masters) {
          expect(await catalogue.master(master.master_id, {})).toEqual(await reference.master(master.master_id, {}));
          expect(await catalogue.resolve({ by: 'discogs', kind: 'master', id: master.master_id }, {})).toEqual(
            await reference.resolve({ by: 'discogs', kind: 'master', id: master.master_id }, {}),
          );
        }

        // re-import of everything: no agent row is rewritten
        await load(late, data, ['masters', 'releases', 'artists', 'labels', 'festivals', 'bandcamp']);
        expect(await agentRows(late)).toEqual(rows);
      } finally {
        await Promise.all([late.drop(), early.drop()]);
      }
    });
  });
}
