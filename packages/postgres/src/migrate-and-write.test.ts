/** Migrations (embedded, idempotent, safe to start together) and the writer's atomic, idempotent batches. */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../../../test/conformance/databases.js';
import { conformanceFixture } from '../../../test/conformance/fixture.js';
import { renderMigrationsModule } from '../scripts/embed-migrations.js';
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

  it('applies a batch atomically: a bad row leaves nothing of its batch behind', async () => {
    const writer = createPostgresWriter(db.sql);
    const good = { ...conformanceFixture().masters[0]!, master_id: 900, title: 'Good row' };
    const bad = { ...good, master_id: 901, title: null as unknown as string };
    await expect(writer.writeMasters([good, bad])).rejects.toThrow();
    expect(await db.sql`SELECT master_id FROM masters WHERE master_id IN (900, 901)`).toHaveLength(0);
  });
});
