/**
 * finish()'s one pass for search documents, master records, terms and facet tables on
 * PostgreSQL (derived-copy.ts, issue 13) writes exactly what the per-table rebuilds write (the
 * path PGlite keeps), whether
 * its pages are computed in worker threads or on this thread, and every stored record is the
 * text the master route would assemble live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../../../../test/conformance/databases.js';
import { conformanceFixture } from '../../../../test/conformance/fixture.js';
import { assembleMasters } from '../catalogue/masters.js';
import type { Reader } from '../catalogue/reader.js';
import { rebuildFacetTables } from './facet-tables.js';
import { createPostgresWriter } from './index.js';
import { rebuildMasterRecords } from './master-records.js';
import { rebuildSearchDocuments } from './search-documents.js';
import { rebuildSearchTerms } from './search-terms.js';

const direct: Reader = (_signal, build) => build();

describe('search documents and master records in one pass (PostgreSQL)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
    await loadCatalogue(db, conformanceFixture());
  });
  afterAll(async () => {
    await db?.drop();
  });

  const rowsOf = async (table: string) => (await db.sql.unsafe(`SELECT t::text AS row FROM ${table} t ORDER BY t::text`)).map((r) => r.row as string);

  // With the one-word terms, and the facet tables with the style words and their codes, built
  // from the documents (migrations 0013–0016).
  async function both() {
    return {
      documents: await rowsOf('search_documents'),
      records: await rowsOf('master_records'),
      terms: await rowsOf('search_terms'),
      styleWords: await rowsOf('search_style_words'),
      totals: await rowsOf('facet_totals'),
      codes: await rowsOf('facet_codes'),
      state: await rowsOf('facet_state'),
    };
  }

  it('writes the rows the per-table rebuilds write, with worker threads and without', async () => {
    const [{ masters }] = await db.sql<[{ masters: number }]>`SELECT count(*)::int AS masters FROM masters`;
    expect(masters).toBeGreaterThan(4);
    // Pages of 2: more pages than the small-catalogue threshold, so worker threads compute them.
    await createPostgresWriter(db.sql, { pageSize: 2, derivedThreads: 2, databaseUrl: db.url }).finish({ force: true });
    const threaded = await both();
    expect(threaded.records).toHaveLength(masters);
    expect(threaded.documents.length).toBeGreaterThan(masters);
    expect(threaded.terms.length).toBeGreaterThan(threaded.documents.length);
    expect(threaded.styleWords.length).toBeGreaterThan(masters);
    expect(threaded.styleWords.every((row) => !row.endsWith(',)'))).toBe(true);
    expect(threaded.state).toEqual([`(t,${masters})`]);

    await createPostgresWriter(db.sql, { pageSize: 1_000, derivedThreads: 0 }).finish({ force: true });
    expect(await both()).toEqual(threaded);
    // The facet tables alone, rebuilt into fresh tables and swapped in (a database migrated to 0016).
    await rebuildFacetTables(db.sql, 'copy');
    expect(await both()).toEqual(threaded);

    // The per-table rebuilds, row by row through parameters (what PGlite runs).
    await db.sql`DELETE FROM master_records`;
    await db.sql`DELETE FROM search_terms`;
    await db.sql`DELETE FROM search_style_words`;
    await db.sql`DELETE FROM facet_state`;
    await rebuildSearchDocuments(db.sql, 'parameter', 3);
    await rebuildSearchTerms(db.sql, 'parameter');
    await rebuildFacetTables(db.sql, 'parameter');
    await rebuildMasterRecords(db.sql, 3);
    expect(await both()).toEqual(threaded);
  });

  it('stores each master record as the text assembleMasters gives live', async () => {
    await createPostgresWriter(db.sql, { pageSize: 2, derivedThreads: 2, databaseUrl: db.url }).finish({ force: true });
    const stored = await db.sql<Array<{ master_id: number; text: string }>>`SELECT master_id, record::text AS text FROM master_records ORDER BY master_id`;
    const live = await assembleMasters(
      db.sql,
      direct,
      stored.map((row) => row.master_id),
    );
    const liveText = new Map(live.map((record) => [record.master_id, JSON.stringify(record)]));
    expect(stored.length).toBeGreaterThan(0);
    for (const row of stored) expect(row.text).toBe(liveText.get(row.master_id));
  });
});
