/** Migrations (embedded, idempotent, safe to start together) and the writer's atomic, idempotent batches. */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../../../test/conformance/databases.js';
import { conformanceFixture } from '../../../test/conformance/fixture.js';
import { renderMigrationsModule } from '../scripts/embed-migrations.js';
import { createPostgresCatalogue } from './catalogue/index.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.generated.js';
import { createPostgresWriter } from './writer/index.js';

describe('migrations and writer on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('embeds every migrations/*.sql file (the generated module is fresh)', () => {
    const generated = readFileSync(fileURLToPath(new URL('./migrations.generated.ts', import.meta.url)), 'utf8');
    expect(generated).toBe(renderMigrationsModule());
  });

  it('applies each migration once when two instances start together, then nothing', async () => {
    const other = db.connect({ max: 1 });
    const [a, b] = await Promise.all([migrate(db.sql), migrate(other)]);
    expect([...a, ...b].sort()).toEqual(MIGRATIONS.map((m) => m.id).sort());
    expect(await migrate(db.sql)).toEqual([]);
  });

  async function snapshot(): Promise<string> {
    const tables = [
      'artists',
      'labels',
      'masters',
      'releases',
      'festivals',
      'festival_lineups',
      'master_artists',
      'master_labels',
      'release_credits',
      'bandcamp_artists',
      'bandcamp_observations',
      'bandcamp_releases',
      'search_documents',
      'master_records',
      'signal_breakouts',
      'signal_tastemakers',
      'signal_ones_to_watch',
      'artist_signals',
    ];
    const parts = await Promise.all(
      tables.map((table) => db.sql.unsafe(`SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h, count(*)::int AS n FROM ${table} t`)),
    );
    return JSON.stringify(parts.map((rows, i) => [tables[i], rows[0]]));
  }

  it('re-importing the same rows changes nothing', async () => {
    const data = conformanceFixture();
    await loadCatalogue(db, data);
    const before = await snapshot();
    await loadCatalogue(db, data);
    expect(await snapshot()).toBe(before);
    const [{ n }] = (await db.sql`SELECT count(*)::int AS n FROM masters`) as unknown as [{ n: number }];
    expect(n).toBe(data.masters.length);
  });

  it('stores every master record at finish(), serves a master as of the last finish() until the next one stores it again', async () => {
    const data = conformanceFixture();
    await loadCatalogue(db, data);
    const catalogue = createPostgresCatalogue(db.sql);
    const stored = async (id: number) =>
      ((await db.sql`SELECT record::text AS text FROM master_records WHERE master_id = ${id}`) as unknown as Array<{ text: string }>)[0]?.text;
    const [{ n }] = (await db.sql`SELECT count(*)::int AS n FROM master_records`) as unknown as [{ n: number }];
    expect(n).toBe(data.masters.length);
    const first = data.masters[0]!;
    const before = await catalogue.master(first.master_id);
    expect(JSON.parse((await stored(first.master_id)) as string)).toEqual(before);

    const writer = createPostgresWriter(db.sql, { staging: db.staging });
    await writer.writeMasters([{ ...first, title: 'Retitled since the last finish' }]);
    // Written, not yet published: every read still serves the catalogue of the last finish()
    // (issue 29: one switch per import, at the next finish()'s commit).
    expect(JSON.parse((await stored(first.master_id)) as string)).toEqual(before);
    expect(await catalogue.master(first.master_id)).toEqual(before);
    expect((await catalogue.masterDossier(first.master_id))?.master.title).toBe(first.title);
    expect((await catalogue.masters([first.master_id, 424242, data.masters[1]!.master_id])).map((m) => m.title)).toEqual([first.title, data.masters[1]!.title]);

    await writer.finish();
    expect((await catalogue.master(first.master_id))?.title).toBe('Retitled since the last finish');
    expect(JSON.parse((await stored(first.master_id)) as string).title).toBe('Retitled since the last finish');
    await writer.writeMasters([first]);
    await writer.finish();
    expect(await catalogue.master(first.master_id)).toEqual(before);

    // A change to a master's main release drops its record too.
    const main = data.releases.find((release) => release.release_id === first.main_release_id);
    expect(main).toBeDefined();
    await writer.writeReleases([{ ...main!, country: 'Atlantis' }]);
    expect(await stored(first.master_id)).toBe(JSON.stringify(before));
    await writer.finish();
    expect(JSON.parse((await stored(first.master_id)) as string).country).toBe('Atlantis');
  });

  it('publishes an import atomically: a bad row fails its finish() and leaves nothing of the import behind', async () => {
    const writer = createPostgresWriter(db.sql);
    const good = { ...conformanceFixture().masters[0]!, master_id: 900, title: 'Good row' };
    const bad = { ...good, master_id: 901, title: null as unknown as string };
    // Batches wait for finish(), whose one transaction merges them (issue 29): the row is
    // refused there, with every other row of the import.
    await writer.writeMasters([{ ...good, master_id: 902 }]);
    await writer.writeMasters([good, bad]);
    await expect(writer.finish()).rejects.toThrow();
    expect(await db.sql`SELECT master_id FROM masters WHERE master_id IN (900, 901, 902)`).toHaveLength(0);
    // The failed import's rows are dropped with it: the next finish() is not refused again.
    await writer.finish({ force: true });
    expect(await db.sql`SELECT master_id FROM masters WHERE master_id IN (900, 901, 902)`).toHaveLength(0);
  });
});
