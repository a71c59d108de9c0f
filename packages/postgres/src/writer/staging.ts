/**
 * One batch = one transaction: the rows go into a temporary staging table (one jsonb column
 * holding the CatalogueData row) and one or more merge statements move them into the real
 * tables. COPY is the fast path on PostgreSQL; PGlite's socket server does not speak the COPY
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
 * Stages `docs` and runs `merge` in the same transaction: all or nothing. The same transaction
 * marks derived data stale (migration 0009), so a run that stops before finish() is known.
 */
export async function stageAndMerge(sql: Sql, mode: StagingMode, docs: readonly unknown[], merge: (tx: TransactionSql) => Promise<void>): Promise<void> {
  if (docs.length === 0) return;
  await sql.begin(async (tx) => {
    await fillStaging(tx, mode, docs);
    await merge(tx);
    await tx`UPDATE catalogue_state SET derived_stale = true WHERE NOT derived_stale`;
  });
}

/** Last row wins when a batch names the same id twice (ON CONFLICT cannot touch a row twice). */
export function lastById<T>(rows: readonly T[], idOf: (row: T) => number): T[] {
  const byId = new Map<number, T>();
  for (const row of rows) byId.set(idOf(row), row);
  return [...byId.values()];
}
