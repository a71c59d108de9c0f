/**
 * One batch = one transaction: the rows go into a temporary staging table (one jsonb column
 * holding the CatalogueData row) and one or more merge statements move them into the real
 * tables. COPY is the fast path on PostgreSQL; PGlite's socket server does not speak the COPY
 * sub-protocol, so there the rows travel as one jsonb array parameter instead.
 */
import type { Sql, TransactionSql } from 'postgres';

export type StagingMode = 'copy' | 'parameter';

/** jsonb cannot hold U+0000; Discogs text never means it, so it is dropped. */
function withoutNul(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
}

/** COPY text format: one row per line; JSON never holds a raw newline or tab, only backslashes need escaping. */
export function copyLines(docs: readonly unknown[]): string {
  let text = '';
  for (const doc of docs) text += `${JSON.stringify(doc, withoutNul).replaceAll('\\', '\\\\')}\n`;
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
    const payload = JSON.parse(JSON.stringify(docs, withoutNul)) as never;
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
