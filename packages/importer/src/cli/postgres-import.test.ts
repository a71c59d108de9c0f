import path from 'node:path';
import { createPostgresCatalogue } from '@catalogue/postgres';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../../../../test/conformance/databases.js';
import { discogsSample } from '../test-support/paths.js';
import { runCli } from './run-cli.js';

// The real path end to end: bin arguments → parser → @catalogue/postgres writer (COPY + merge)
// on the server at 127.0.0.1:5432, in a database created for this run and dropped after.
const SAMPLES = [discogsSample('artists'), discogsSample('labels'), discogsSample('masters'), discogsSample('releases')];
const TABLES = ['artists', 'labels', 'masters', 'releases'] as const;

let db: TestDatabase;
let sql: Sql;
let url: string;

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 1 });
  ({ sql, url } = db);
});

afterAll(async () => {
  await db?.drop();
});

async function importSamples(): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runCli(['import', 'discogs', ...SAMPLES], {
    env: { DATABASE_URL: url },
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => (stderr += chunk) },
  });
  return { code, stderr };
}

async function snapshot(): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    tables[table] = (await sql.unsafe(`SELECT to_jsonb(t) AS row FROM ${table} t ORDER BY 1`)).map((r) => r.row);
  }
  return tables;
}

describe('catalogue import discogs into PostgreSQL', () => {
  it('loads the four samples with their exact values, and a re-import changes nothing', async () => {
    const first = await importSamples();
    expect(first.stderr).not.toMatch(/^catalogue:/m); // progress lines only (stderr is not a terminal)
    expect(first.code).toBe(0);

    for (const table of TABLES) {
      // artists and labels also hold a stub for every agent the samples credit without a row (docs/decisions.md §5)
      const dumped = table === 'artists' || table === 'labels' ? 'WHERE NOT stub' : '';
      const [row] = await sql.unsafe(`SELECT count(*)::int AS count FROM ${table} ${dumped}`);
      expect(row?.count, table).toBe(1000);
    }
    // Vince Watson, credited on master 113, is not in the artists sample: a stub from the credit
    const [credited] = await sql`SELECT name, slug, stub FROM artists WHERE discogs_id = 3225`;
    expect(credited).toEqual({ name: 'Vince Watson', slug: 'vince-watson', stub: true });
    const [master] = await sql`SELECT master_id, title, year, main_release_id, genres, styles FROM masters WHERE master_id = 113`;
    expect(master).toEqual({
      master_id: 113,
      title: 'Moments In Time',
      year: 2002,
      main_release_id: 116925,
      genres: ['Electronic'],
      styles: ['Techno', 'Tech House'],
    });
    const [release] = await sql`SELECT master_id, is_main_release, released FROM releases WHERE release_id = 1`;
    expect(release).toEqual({ master_id: 1660109, is_main_release: true, released: '1999-03-00' });
    const [artist] = await sql`SELECT name FROM artists WHERE discogs_id = 1`;
    expect(artist).toEqual({ name: 'The Persuader' });
    const [label] = await sql`SELECT name FROM labels WHERE discogs_id = 1`;
    expect(label).toEqual({ name: 'Planet E' });

    const before = await snapshot();
    const second = await importSamples();
    expect(second.code).toBe(0);
    expect(await snapshot()).toEqual(before);
  });

  it("imports the sample feeds README names (data/feeds), and their signals reach the samples' artists", async () => {
    const feeds = path.join(import.meta.dirname, '../../../../data/feeds');
    for (const [kind, rows] of [
      ['bandcamp', 4],
      ['festivals', 2],
    ] as const) {
      let stdout = '';
      let stderr = '';
      const code = await runCli(['import', kind, path.join(feeds, `${kind}.jsonl`)], {
        env: { DATABASE_URL: url },
        stdout: { write: (chunk: string) => (stdout += chunk) },
        stderr: { write: (chunk: string) => (stderr += chunk) },
      });
      expect(code).toBe(0);
      expect(stderr).not.toMatch(/^catalogue:/m);
      expect(stdout).toMatch(new RegExp(`^imported ${kind} ${rows} — ${rows} records in `));
      expect(stdout).not.toContain('(0 records/s)');
    }
    // AFX (Discogs artist 47 of the samples): cluster_id 47 × 4 + 1.
    const catalogue = createPostgresCatalogue(sql);
    expect(await catalogue.bandcampArtist(47 * 4 + 1)).toMatchObject({ url: 'https://afx-sample.bandcamp.com' });
  });

  it('refresh rebuilds derived data, e.g. master records emptied by an upgrade', async () => {
    await sql`DELETE FROM master_records`;
    let stdout = '';
    const code = await runCli(['refresh'], {
      env: { DATABASE_URL: url },
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: () => true },
    });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'derived data recomputed\n' });
    const [row] = await sql`SELECT count(*)::int AS n, bool_and(record::text LIKE '{"master_id":%') AS shaped FROM master_records`;
    expect(row).toEqual({ n: 1000, shaped: true });
  });
});
