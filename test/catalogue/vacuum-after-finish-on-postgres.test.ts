/**
 * finish() ends with VACUUM (ANALYZE) of the catalogue (packages/postgres/src/writer/vacuum.ts):
 * a derived table swapped in by the import has no statistics, no visibility map and no hint
 * bits, so until vacuumed every first read of one of its pages writes that page back, and the
 * planner works from defaults. master_records — the table the master and batch routes read —
 * was missing from the list: after an import at 1 M masters a master read cost PostgreSQL about
 * 300 µs of CPU instead of about 110 until something vacuumed it (issue 14). This test lists
 * every table holding rows after an import and wants each one analyzed and vacuumed, so a table
 * added later cannot be forgotten the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';

/** Bookkeeping rows (one or a few each), not catalogue data: nothing reads them by scan or index at scale. */
const BOOKKEEPING = new Set(['schema_migrations', 'catalogue_state', 'facet_state', 'signal_state']);

let db: TestDatabase;

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 2 });
  await loadCatalogue(db, fixtureData());
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('finish() on PostgreSQL', () => {
  it('leaves every catalogue table that holds rows analyzed and vacuumed, master_records included', async () => {
    const tables = await db.sql<Array<{ name: string; analyzed: boolean; all_visible_pages: number }>>`
      SELECT c.relname AS name, c.reltuples >= 0 AS analyzed, c.relallvisible AS all_visible_pages
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r'
      ORDER BY c.relname`;
    const holding: string[] = [];
    for (const table of tables) {
      if (BOOKKEEPING.has(table.name)) continue;
      const [row] = await db.sql.unsafe<Array<{ any: boolean }>>(`SELECT EXISTS (SELECT 1 FROM ${table.name}) AS any`);
      if (row?.any) holding.push(table.name);
    }
    expect(holding).toContain('master_records');
    expect(holding).toContain('search_documents');
    const notVacuumed = tables.filter((table) => holding.includes(table.name) && (!table.analyzed || table.all_visible_pages === 0)).map((table) => table.name);
    expect(notVacuumed).toEqual([]);
  });
});
