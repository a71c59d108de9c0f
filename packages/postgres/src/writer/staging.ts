/**
 * One batch = one transaction: the rows go into a temporary staging table (one jsonb column
 * holding the CatalogueData row) and from it into pending_rows, where they wait for finish(),
 * whose one transaction merges them into the real tables (issue 29). COPY is the fast path on PostgreSQL; PGlite's socket server does not speak the COPY
 * sub-protocol, so there the rows travel as one jsonb array parameter instead.
 */
import type { Sql, TransactionSql } from 'postgres';
import { copyJson, jsonWithoutNul } from '../bulk/copy-text.js';

export type StagingMode = 'copy' | 'parameter';

/** COPY text format, one row per line (bulk/copy-text.ts: U+0000, which jsonb cannot hold, dropped). */
export function copyLines(docs: readonly unknown[]): string {
  let text = '';
  for (const doc of docs) text += `${copyJson(doc)}\n`;
  return text;
}

async function copyInto(tx: TransactionSql, docs: readonly unknown[]): Promise<void> {
  const stream = await tx`COPY staging_rows (doc) FROM STDIN`.writable();
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(copyLines(docs));
  });
}

/**
 * Fills the transaction's staging table with `docs` (creating it on first use, emptying it
 * otherwise). The table is dropped at commit, so batches on other connections never meet.
 */
export async function fillStaging(tx: TransactionSql, mode: StagingMode, docs: readonly unknown[]): Promise<void> {
  await tx`CREATE TEMPORARY TABLE IF NOT EXISTS staging_rows (doc jsonb NOT NULL) ON COMMIT DROP`;
  await tx`TRUNCATE staging_rows`;
  if (mode === 'copy') await copyInto(tx, docs);
  else {
    const payload = JSON.parse(jsonWithoutNul(docs)) as never;
    await tx`INSERT INTO staging_rows (doc) SELECT value FROM jsonb_array_elements(${tx.json(payload)}::jsonb)`;
  }
}

/**
 * Where row batches wait for finish() (issue 29): written before, they were in the live tables
 * at once, so dossiers and resolve served a batch seconds before search and the stored master
 * records had it. Unlogged: it is the loader's scratch, replayed by no replica, and a crash
 * that loses it loses an import that never finished. Created on the first batch, dropped by
 * the finish() that applies it.
 */
export const PENDING_ROWS = 'pending_rows';

/** The kinds of row a batch holds, in the order finish() merges them, with each row's id. */
export const PENDING_KINDS = {
  artists: 'discogs_id',
  labels: 'discogs_id',
  masters: 'master_id',
  releases: 'release_id',
  festivals: 'festival_id',
  bandcamp: 'artist_discogs_id',
} as const;

export type PendingKind = keyof typeof PENDING_KINDS;

/**
 * Keeps a batch for finish(), all of it or none. The same transaction marks derived data stale
 * (migration 0009), so a run that stops before finish() is known.
 */
export async function stagePending(sql: Sql, mode: StagingMode, kind: PendingKind, docs: readonly unknown[]): Promise<void> {
  if (docs.length === 0) return;
  await sql.begin(async (tx) => {
    await tx.unsafe(`CREATE UNLOGGED TABLE IF NOT EXISTS ${PENDING_ROWS} (seq bigserial PRIMARY KEY, kind text NOT NULL, doc jsonb NOT NULL)`);
    await fillStaging(tx, mode, docs);
    await tx.unsafe(`INSERT INTO ${PENDING_ROWS} (kind, doc) SELECT $1, doc FROM staging_rows`, [kind]);
    await tx`UPDATE catalogue_state SET derived_stale = true WHERE NOT derived_stale`;
  });
}

/** A failed finish() drops what waited: the import failed as a whole, and a bad row would fail every later one. */
export async function dropPendingRows(sql: Sql): Promise<void> {
  await sql.unsafe(`DROP TABLE IF EXISTS ${PENDING_ROWS}`);
}

/**
 * Merges every waiting batch into the catalogue tables, kind by kind, inside finish()'s
 * transaction: the last row written for an id wins, as when each batch was merged in turn.
 * True when any batch was waiting.
 */
export async function applyPendingRows(tx: TransactionSql, merges: Record<PendingKind, (tx: TransactionSql) => Promise<void>>): Promise<boolean> {
  const [found] = await tx<Array<{ found: boolean }>>`SELECT to_regclass(${PENDING_ROWS}) IS NOT NULL AS found`;
  if (!found?.found) return false;
  for (const [kind, id] of Object.entries(PENDING_KINDS) as Array<[PendingKind, string]>) {
    await tx`CREATE TEMPORARY TABLE IF NOT EXISTS staging_rows (doc jsonb NOT NULL) ON COMMIT DROP`;
    await tx`TRUNCATE staging_rows`;
    const [staged] = await tx.unsafe<Array<{ n: number }>>(
      `WITH staged AS (
         INSERT INTO staging_rows (doc)
         SELECT DISTINCT ON ((doc->>'${id}')::int) doc FROM ${PENDING_ROWS} WHERE kind = $1 ORDER BY (doc->>'${id}')::int, seq DESC
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM staged`,
      [kind],
    );
    if ((staged?.n ?? 0) > 0) await merges[kind](tx);
  }
  await tx.unsafe(`DROP TABLE ${PENDING_ROWS}`);
  return true;
}

/** Last row wins when a batch names the same id twice (ON CONFLICT cannot touch a row twice). */
export function lastById<T>(rows: readonly T[], idOf: (row: T) => number): T[] {
  const byId = new Map<number, T>();
  for (const row of rows) byId.set(idOf(row), row);
  return [...byId.values()];
}
