/**
 * The bulk import on real PostgreSQL (issue 13): an unchanged re-import changes no row of any
 * table, a changed record is the only one rewritten, and a failed import (a truncated gzip, a
 * bad record) leaves the previous complete state served.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresCatalogue, createPostgresWriter } from '@catalogue/postgres';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../../../../test/conformance/databases.js';
import { rebuildFacetTables } from '../../../postgres/src/writer/facet-tables.js';
// The per-table rebuilds are not exported: the package's own sources, for comparison only.
import { rebuildMasterRecords } from '../../../postgres/src/writer/master-records.js';
import { rebuildSearchDocuments } from '../../../postgres/src/writer/search-documents.js';
import { rebuildSearchTerms } from '../../../postgres/src/writer/search-terms.js';
import { discogsSample, fixturesDir } from '../test-support/paths.js';
import { changedTables, tableChecksums } from '../test-support/table-checksums.js';
import { runCli } from './run-cli.js';

const SAMPLES = [discogsSample('artists'), discogsSample('labels'), discogsSample('masters'), discogsSample('releases')];
const scratch = mkdtempSync(path.join(tmpdir(), 'catalogue-bulk-'));

let db: TestDatabase;
let sql: Sql;
let url: string;

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 1 });
  ({ sql, url } = db);
});

afterAll(async () => {
  await db?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

async function importFiles(files: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['import', 'discogs', ...files], {
    env: { DATABASE_URL: url },
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
  });
  return { code, stdout, stderr };
}

async function state(): Promise<{ generation: number; stale: boolean; importTables: number }> {
  const [row] = await sql<Array<{ generation: string; stale: boolean; import_tables: number }>>`
    SELECT generation::text, derived_stale AS stale,
           (SELECT count(*)::int FROM pg_tables WHERE tablename LIKE 'import\\_%') AS import_tables
    FROM catalogue_state`;
  return { generation: Number(row?.generation), stale: row?.stale ?? true, importTables: row?.import_tables ?? -1 };
}

describe('catalogue import discogs, bulk path', () => {
  it('re-importing an unchanged dump skips every record and changes no row of any table', async () => {
    const first = await importFiles(SAMPLES);
    expect(first.code, first.stderr).toBe(0);
    const before = await tableChecksums(sql);
    // One document per master, artist and label: the dumps' 3,000 plus the agents their credits
    // name that the dumps do not hold (stubs, issue 12).
    const [agents] = await sql<Array<{ stubs: number }>>`
      SELECT (SELECT count(*) FROM artists WHERE stub)::int + (SELECT count(*) FROM labels WHERE stub)::int AS stubs`;
    expect(agents?.stubs).toBeGreaterThan(0);
    expect(before.search_documents?.rows).toBe(3000 + (agents?.stubs ?? 0));
    expect(before.master_records?.rows).toBe(1000);
    const afterFirst = await state();
    expect(afterFirst).toMatchObject({ stale: false, importTables: 0 });

    const second = await importFiles(SAMPLES);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('(4,000 unchanged records skipped)');
    expect(changedTables(before, await tableChecksums(sql))).toEqual([]);
    // The generation still advances last (serving processes drop what they kept).
    expect(await state()).toEqual({ generation: afterFirst.generation + 1, stale: false, importTables: 0 });
  });

  it("finish()'s one pass writes the documents, records, terms and facet tables the per-table rebuilds write, on the samples", async () => {
    const tables = ['search_documents', 'master_records', 'search_terms', 'search_style_words', 'facet_totals', 'facet_codes', 'facet_state'];
    const rows = async () => Promise.all(tables.map(async (table) => (await sql.unsafe(`SELECT t::text AS row FROM ${table} t ORDER BY 1`)).map((r) => r.row)));
    const imported = await rows();
    expect(imported.slice(0, 4).map((table) => table.length >= 1000)).toEqual([true, true, true, true]);
    expect(imported.map((table) => table.length > 0)).toEqual(tables.map(() => true));
    // Pages of 50: the pages are computed in worker threads (derived-copy.ts, issue 13), on a
    // pool with connections beside finish()'s transaction (a pool of one recomputes in place).
    await createPostgresWriter(db.connect({ max: 4 }), { pageSize: 50, derivedThreads: 2, databaseUrl: url }).finish({ force: true });
    expect(await rows()).toEqual(imported);
    // The per-table rebuilds: terms, style words and facet tables selected from the stored documents in SQL.
    for (const table of tables) await sql.unsafe(`DELETE FROM ${table}`);
    await rebuildSearchDocuments(sql, 'parameter', 100);
    await rebuildMasterRecords(sql, 100);
    await rebuildSearchTerms(sql, 'parameter');
    await rebuildFacetTables(sql, 'parameter');
    expect(await rows()).toEqual(imported);
  });

  // Several CLI imports, each with finish(): over 30 s when the 2 cores are shared.
  it('a changed record is the only row rewritten, and derived data follows it', { timeout: 90_000 }, async () => {
    const before = await tableChecksums(sql);
    const file = path.join(scratch, 'artists.xml');
    writeFileSync(file, '<artists>\n<artist><id>1</id><name>The Persuader Renamed</name></artist>\n</artists>\n');
    const result = await importFiles([file]);
    expect(result.code, result.stderr).toBe(0);
    const changed = changedTables(before, await tableChecksums(sql));
    expect(changed).toContain('artists');
    expect(changed).not.toContain('masters');
    expect(changed).not.toContain('releases');
    const [artist] = await sql`SELECT name, slug FROM artists WHERE discogs_id = 1`;
    expect(artist).toEqual({ name: 'The Persuader Renamed', slug: 'the-persuader-renamed' });
    const [document] = await sql`SELECT name FROM search_documents WHERE kind = 1 AND id = ${1 * 4 + 1}`;
    expect(document).toEqual({ name: 'The Persuader Renamed' });

    // A changed master and release: their link rows follow, and the master's stored record.
    const masters = path.join(scratch, 'masters.xml');
    writeFileSync(
      masters,
      '<masters>\n<master id="113"><main_release>116925</main_release><artists><artist><id>42</id><name>Other</name></artist></artists><title>Renamed</title></master>\n</masters>\n',
    );
    const releases = path.join(scratch, 'releases.xml');
    writeFileSync(
      releases,
      '<releases>\n<release id="1"><title>T</title><extraartists><artist><id>77</id><name>X</name></artist></extraartists></release>\n</releases>\n',
    );
    expect((await importFiles([masters, releases])).code).toBe(0);
    expect(await sql`SELECT artist_id FROM master_artists WHERE master_id = 113`).toEqual([{ artist_id: 42 }]);
    expect(await sql`SELECT artist_id FROM release_credits WHERE release_id = 1`).toEqual([{ artist_id: 77 }]);
    const [stored] = await sql`SELECT record->>'title' AS title FROM master_records WHERE master_id = 113`;
    expect(stored).toEqual({ title: 'Renamed' });

    // Put the samples' records back for the next test.
    for (const kind of ['artists', 'masters', 'releases'] as const) expect((await importFiles([discogsSample(kind)])).code).toBe(0);
    expect(changedTables(before, await tableChecksums(sql))).toEqual([]);
  });

  // Files are read two at a time, the largest kinds first (import-discogs-bulk.ts); files of
  // one kind keep the order given, so the later file's record wins whichever is larger.
  it.each([
    ['the larger first', [5_000, 1]],
    ['the smaller first', [1, 5_000]],
  ])('two files of one kind (%s): the later file names the record last and wins', { timeout: 90_000 }, async (_name, sizes) => {
    const before = await tableChecksums(sql);
    const files = (sizes as number[]).map((count, index) => {
      const file = path.join(scratch, `artists-${index}.xml`);
      const others = Array.from({ length: count - 1 }, (_, i) => `<artist><id>${900_000 + i}</id><name>Filler ${i}</name></artist>`).join('\n');
      writeFileSync(file, `<artists>\n<artist><id>3</id><name>From file ${index}</name></artist>\n${others}\n</artists>\n`);
      return file;
    });
    // Beside them, a file of another kind that another lane reads at the same time.
    const result = await importFiles([...files, discogsSample('labels')]);
    expect(result.code, result.stderr).toBe(0);
    expect(await sql`SELECT name FROM artists WHERE discogs_id = 3`).toEqual([{ name: 'From file 1' }]);

    await sql`DELETE FROM artists WHERE discogs_id >= 900000`;
    expect((await importFiles([discogsSample('artists')])).code).toBe(0);
    await createPostgresWriter(sql).finish({ force: true });
    expect(changedTables(before, await tableChecksums(sql)).filter((table) => table !== 'catalogue_state')).toEqual([]);
  });

  it.each([
    ['a truncated gzip', 'truncated-masters.xml.gz', /truncated-masters\.xml\.gz: cannot read the file: unexpected end of file/],
    ['a bad record', 'missing-id.xml', /missing-id\.xml, record #3: artist has no <id>/],
  ])('a failed import (%s) leaves the previous complete state served', async (_name, fixture, message) => {
    const before = await tableChecksums(sql);
    const previous = await state();
    const catalogue = createPostgresCatalogue(sql);
    const served = await catalogue.masters([113]);

    // The first file is complete and changed; the second fails: nothing of either is applied.
    const changedArtists = path.join(scratch, 'changed-artists.xml');
    writeFileSync(changedArtists, '<artists>\n<artist><id>2</id><name>Changed Name</name></artist>\n</artists>\n');
    const result = await importFiles([changedArtists, path.join(fixturesDir, 'discogs/bad', fixture)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);

    expect(changedTables(before, await tableChecksums(sql))).toEqual([]);
    expect(await state()).toEqual(previous);
    expect(await catalogue.masters([113])).toEqual(served);
  });
});
