/**
 * The bulk import of the Discogs tables (issue 13). Each dump file is streamed with COPY into a
 * fresh `import_<table>` (no index, created in the COPY's own transaction so COPY FREEZE
 * writes it frozen and all-visible); nothing live is touched until every file is in, so a
 * failed file leaves the previous complete state served. Then apply():
 * - a live table that is empty (a first import) is replaced by its import table, whose
 *   primary key, constraints and indexes are built after the load, by a rename in one short
 *   transaction (readers keep reading the old table until it commits);
 * - otherwise the import table holds only the records whose content hash differs from the
 *   stored one (the reader skipped the rest): it is kept as `pending_<table>`, and the
 *   writer's finish() upserts it in the one transaction that also swaps in the derived data
 *   and advances the generation (applyPendingBulk), so every read switches to the import at
 *   once (issue 29: upserted here, dossiers and resolve served it seconds before search).
 * Link tables follow in SQL, and catalogue_state.derived_stale is set (migration 0009)
 * whenever a row changed or waits, so finish() knows derived data must be recomputed.
 */
import { once } from 'node:events';
import type { Sql, TransactionSql } from 'postgres';
import { BULK_COLUMNS, BULK_ID, BULK_TABLES, type BulkTable } from './bulk-rows.js';
import { addPrimaryKeyLike, buildIndexesLike, setLoad, swapIn } from './table-swap.js';

const importTable = (table: BulkTable) => `import_${table}`;
/** A loaded table's changed records, waiting for the writer's finish(). */
const pendingTable = (table: BulkTable) => `pending_${table}`;

export interface BulkLoad {
  /** Streams COPY text (bulkLine lines, as strings or UTF-8 bytes) into the table's import table, in one transaction. */
  copy(table: BulkTable, batches: AsyncIterable<string | Uint8Array>): Promise<void>;
  /**
   * Swaps first imports in; the changed records of the other tables wait for the writer's
   * finish() (applyPendingBulk). True when any row changed or waits.
   */
  apply(onStep?: (step: string, seconds: number) => void): Promise<boolean>;
  /** Drops the import tables (after a failure, or when nothing is to be applied). */
  discard(): Promise<void>;
}

async function exists(sql: Sql | TransactionSql, name: string): Promise<boolean> {
  const [row] = await sql<Array<{ found: boolean }>>`SELECT to_regclass(${name}) IS NOT NULL AS found`;
  return row?.found ?? false;
}

/** The link table each source table feeds: what mergeMasters / mergeReleases keep (writer/merges.ts). */
const LINKS: Partial<Record<BulkTable, { table: string; source: string; id: string; list: string }>> = {
  masters: { table: 'master_artists', source: 'import_masters', id: 'master_id', list: 'artists' },
  releases: { table: 'release_credits', source: 'import_releases', id: 'release_id', list: 'extra_artists' },
};

/**
 * The (agent id, row id) rows of a link table, from the credits list of each `source` row. A
 * row id is unique (the primary key), so duplicates are dropped per row, not by one DISTINCT
 * over every credit, and the list is read by jsonb_to_recordset straight into an int column
 * (a credit's discogs_id is a number or null, core's mappers): at 4 M records release_credits'
 * rows took 7.0 s of a core this way against 10.7 s with jsonb_array_elements, `->>` on each
 * element and a global DISTINCT (issue 29).
 */
function linkRows(link: { id: string; list: string }, source: string, where = 'true'): string {
  return `
    SELECT credit.id, s.${link.id}
    FROM ${source} s
    CROSS JOIN LATERAL (
      SELECT DISTINCT c.discogs_id AS id FROM jsonb_to_recordset(s.doc->'${link.list}') AS c(discogs_id int) WHERE c.discogs_id IS NOT NULL
    ) AS credit
    WHERE ${where}`;
}

async function dropImportTables(sql: Sql): Promise<void> {
  const links = Object.values(LINKS).map((link) => `import_${link.table}`);
  await sql.unsafe(`DROP TABLE IF EXISTS ${[...BULK_TABLES.map(importTable), ...links].join(', ')}`);
}

/**
 * Changed records a load left for a finish() that never ran (a crash between them): a new load
 * starts from the catalogue as served. derived_stale still says a refresh is due.
 */
export async function dropPendingTables(sql: Sql): Promise<void> {
  await sql.unsafe(`DROP TABLE IF EXISTS ${BULK_TABLES.map(pendingTable).join(', ')}`);
}

/**
 * The changed records of every loaded table upserted, with their link tables and the stored
 * master records they invalidate, inside the writer's finish() transaction; the pending tables
 * dropped there too. True when any row changed.
 */
export async function applyPendingBulk(tx: TransactionSql): Promise<boolean> {
  let any = false;
  for (const table of BULK_TABLES) {
    if (!(await exists(tx, pendingTable(table)))) continue;
    if (await upsertChanged(tx, table, pendingTable(table))) any = true;
    await tx.unsafe(`DROP TABLE ${pendingTable(table)}`);
  }
  return any;
}

/** A link table built whole from its source's import table, keyed and indexed like the live one. */
async function buildLinkTable(sql: Sql, link: { table: string; source: string; id: string; list: string }): Promise<void> {
  const target = `import_${link.table}`;
  await sql.begin(async (tx) => {
    await setLoad(tx);
    await tx.unsafe(`CREATE TABLE ${target} (LIKE ${link.table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    await tx.unsafe(`INSERT INTO ${target} ${linkRows(link, link.source)}`);
  });
  await addPrimaryKeyLike(sql, link.table, target);
  await buildIndexesLike(sql, link.table, target);
}

/**
 * Slugs of a first import, set on the import table before its indexes exist: core's
 * assignSlugs in SQL (the lowest id owns its base, every other row is `${base}-${id}`;
 * writer/slugs.ts does the same on live rows). The reader loaded each row with its guess
 * (bulk-rows.ts, SlugBasesSeen: right for a dump sorted by id, bar a filter's rare false
 * "seen"), so only the rows guessed wrong are rewritten: none for a sorted dump, where loading
 * every row as its base rewrote all that share one (the bench dump's 4 M records: 15.6 s, and
 * a dead version of each).
 */
async function assignSlugs(sql: Sql, table: 'artists' | 'labels'): Promise<void> {
  await sql.begin(async (tx) => {
    await setLoad(tx);
    await tx.unsafe(`
      UPDATE ${importTable(table)} t SET slug = e.expected
      FROM (
        SELECT discogs_id,
               CASE WHEN discogs_id = min(discogs_id) OVER (PARTITION BY slug_base) THEN slug_base ELSE slug_base || '-' || discogs_id END AS expected
        FROM ${importTable(table)}
      ) AS e
      WHERE t.discogs_id = e.discogs_id AND t.slug IS DISTINCT FROM e.expected`);
  });
}

/** Starts a bulk load; import tables a crashed earlier run left behind are dropped first. */
export async function beginBulkLoad(sql: Sql): Promise<BulkLoad> {
  await dropImportTables(sql);
  await dropPendingTables(sql);
  const loaded = new Set<BulkTable>();

  /**
   * Each table's key, slugs, indexes and link table, on a connection of its own: each statement
   * runs on one core, and one after another they took ~50 s of a 1 M-per-kind import (issue 13).
   * After the last file: started once a kind's files were in, they took the core of the file
   * still loading, with no gain end to end on 2 cores (issue 29, import-discogs-bulk.ts).
   * Nothing here reads another table's import table. Answers what apply() swaps in: the import
   * table and its link table for a first import, nothing for the others.
   */
  const prepareTable = async (table: BulkTable, onStep?: (step: string, seconds: number) => void): Promise<{ table: BulkTable; link?: string } | null> => {
    const step = stepper(onStep);
    // The key first: it drops a record an id names twice, which the link table must not see.
    await step(`${table}: primary key`, () => addPrimaryKey(sql, table));
    if (!(await isEmpty(sql, table))) return null;
    const link = LINKS[table];
    // A first import: slugs before the indexes (no index to maintain per row), and the link
    // table (live, it is empty with its source) built from the import table beside them, not
    // after them (at 4 M records release_credits took 38 s after releases' 8 s of indexes).
    const built = await Promise.allSettled([
      (async () => {
        if (table === 'artists' || table === 'labels') await step(`${table}: slugs`, () => assignSlugs(sql, table));
        await step(`${table}: indexes`, () => buildIndexesLike(sql, table, importTable(table)));
      })(),
      link ? step(`${link.table}: built`, () => buildLinkTable(sql, link)) : undefined,
    ]);
    const failed = built.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    // Statistics before the swap (a rename keeps them): finish()'s first joins run on the
    // swapped-in tables before its own ANALYZE, and with none the planner hashed every release
    // for links' 293,000 masters where it now probes releases_pkey 1,292 times (4 M records:
    // 15.2 s against 2.8). Sampled, so a second or two beside the other tables' indexes.
    await step(`${table}: statistics`, () =>
      sql.unsafe(`ANALYZE ${[importTable(table), ...(link ? [`import_${link.table}`] : [])].join(', ')}`).then(() => undefined),
    );
    return link ? { table, link: link.table } : { table };
  };

  return {
    async copy(table, batches) {
      const target = importTable(table);
      await sql.begin(async (tx) => {
        await setLoad(tx);
        const fresh = !(await exists(tx, target));
        if (fresh) await tx.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS)`);
        const stream = await tx.unsafe(`COPY ${target} (${BULK_COLUMNS[table].join(', ')}) FROM STDIN${fresh ? ' (FREEZE)' : ''}`).writable();
        const done = new Promise<void>((resolve, reject) => {
          stream.once('finish', resolve);
          stream.once('error', reject);
        });
        try {
          for await (const text of batches) {
            if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done]);
          }
        } catch (error) {
          // CopyFail: the COPY and its transaction are rolled back.
          stream.destroy(error instanceof Error ? error : new Error(String(error)));
          await done.catch(() => undefined);
          throw error;
        }
        stream.end();
        await done;
      });
      loaded.add(table);
    },

    async apply(onStep) {
      const step = stepper(onStep);
      const tables = BULK_TABLES.filter((table) => loaded.has(table));
      // Every table settles before an error is raised, so none is left building.
      const prepared = await Promise.allSettled(tables.map((table) => prepareTable(table, onStep)));
      const failed = prepared.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      const first = prepared.flatMap((result) => (result.status === 'fulfilled' && result.value ? [result.value] : []));
      // Swapped in the tables' own order (allSettled keeps it), whichever finished first.
      const swaps = first.map((done) => done.table);
      const linkSwaps = first.flatMap((done) => (done.link ? [done.link] : []));
      const changed = await step('apply', () =>
        sql.begin(async (tx) => {
          await setLoad(tx);
          let any = false;
          // The changed records wait for finish() under their own name (an empty one is dropped:
          // nothing changed); swaps last: a swap holds its table's exclusive lock until commit.
          for (const table of tables) {
            if (swaps.includes(table)) continue;
            const [row] = await tx.unsafe<Array<{ some: boolean }>>(`SELECT EXISTS (SELECT 1 FROM ${importTable(table)}) AS some`);
            if (!row?.some) continue;
            await tx.unsafe(`DROP TABLE IF EXISTS ${pendingTable(table)}`);
            await tx.unsafe(`ALTER TABLE ${importTable(table)} RENAME TO ${pendingTable(table)}`);
            await tx.unsafe(`ALTER TABLE ${pendingTable(table)} RENAME CONSTRAINT ${importTable(table)}_pkey TO ${pendingTable(table)}_pkey`);
            any = true;
          }
          for (const table of swaps) {
            await swapIn(tx, table, importTable(table));
            any = true;
          }
          for (const link of linkSwaps) await swapIn(tx, link, `import_${link}`);
          if (any) await tx`UPDATE catalogue_state SET derived_stale = true`;
          return any;
        }),
      );
      await dropImportTables(sql);
      return changed;
    },

    async discard() {
      await dropImportTables(sql);
      await dropPendingTables(sql);
    },
  };
}

function stepper(onStep?: (step: string, seconds: number) => void) {
  return async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const startedAt = performance.now();
    const result = await run();
    onStep?.(name, (performance.now() - startedAt) / 1000);
    return result;
  };
}

async function isEmpty(sql: Sql, table: BulkTable): Promise<boolean> {
  const [row] = await sql.unsafe<Array<{ empty: boolean }>>(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`);
  return row?.empty ?? true;
}

/** The primary key, after the load; a dump naming an id twice keeps its last record. */
async function addPrimaryKey(sql: Sql, table: BulkTable): Promise<void> {
  const target = importTable(table);
  const id = BULK_ID[table];
  const add = () =>
    sql.begin(async (tx) => {
      await setLoad(tx);
      await tx.unsafe(`ALTER TABLE ${target} ADD CONSTRAINT ${target}_pkey PRIMARY KEY (${id})`);
    });
  try {
    await add();
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
    await sql.unsafe(`DELETE FROM ${target} a USING ${target} b WHERE a.${id} = b.${id} AND a.ctid < b.ctid`);
    await add();
  }
}

/**
 * Upserts the import table's rows whose content hash differs from the stored one (rows
 * written row by row have none, so they are rewritten once); the ids that changed are kept in
 * `changed_ids` for the link tables. True when any row changed.
 */
async function upsertChanged(tx: TransactionSql, table: BulkTable, source: string): Promise<boolean> {
  // The loaded slug is only the base (bulk-rows.ts): a live row keeps its own until finish()'s
  // slugs step recomputes them all.
  const columns = BULK_COLUMNS[table].filter((column) => column !== 'slug');
  const id = BULK_ID[table];
  const updates = columns
    .filter((column) => column !== id)
    .map((column) => `${column} = EXCLUDED.${column}`)
    // The dump's own row replaces a credit stub (migration 0010_agent_stubs, writer/agent-stubs.ts).
    .concat(table === 'artists' || table === 'labels' ? ['stub = false'] : [])
    .join(', ');
  await tx.unsafe('CREATE TEMPORARY TABLE IF NOT EXISTS changed_ids (id integer PRIMARY KEY) ON COMMIT DROP');
  await tx.unsafe('TRUNCATE changed_ids');
  await tx.unsafe(`
    WITH changed AS (
      INSERT INTO ${table} (${columns.join(', ')})
      SELECT ${columns.join(', ')} FROM ${source}
      ON CONFLICT (${id}) DO UPDATE SET ${updates}
      WHERE ${table}.content_hash IS DISTINCT FROM EXCLUDED.content_hash
      RETURNING ${id}
    )
    INSERT INTO changed_ids SELECT ${id} FROM changed`);
  const [row] = await tx<Array<{ n: number }>>`SELECT count(*)::int AS n FROM changed_ids`;
  if ((row?.n ?? 0) === 0) return false;
  await fillLinks(tx, table);
  return true;
}

/**
 * The link table of the changed rows (master_artists, release_credits) and the stored master
 * records the change invalidates, as mergeMasters / mergeReleases keep them (writer/merges.ts).
 */
async function fillLinks(tx: TransactionSql, table: BulkTable): Promise<void> {
  const link = LINKS[table];
  if (!link) return;
  const invalidated =
    table === 'masters' ? 'SELECT id FROM changed_ids' : 'SELECT master_id FROM masters WHERE main_release_id IN (SELECT id FROM changed_ids)';
  await tx.unsafe(`DELETE FROM master_records WHERE master_id IN (${invalidated})`);
  await tx.unsafe(`DELETE FROM ${link.table} WHERE ${link.id} IN (SELECT id FROM changed_ids)`);
  await tx.unsafe(`INSERT INTO ${link.table} ${linkRows(link, table, `s.${link.id} IN (SELECT id FROM changed_ids)`)}`);
}
