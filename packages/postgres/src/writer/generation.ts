/**
 * The catalogue's generation (migration 0008). finish() advances it as the last statement of
 * the one transaction that publishes an import (writer/index.ts: the import's rows, the
 * derived tables swapped in, derived_stale cleared, migration 0009), so the generation a reader
 * sees and the catalogue it reads change at one commit (issue 29). Then, after that commit,
 * the WAL position it reached is recorded and every serving process told (NOTIFY): a replica
 * that has replayed `finished_lsn` holds all of the import.
 */
import type { Sql, TransactionSql } from 'postgres';

export const CATALOGUE_FINISHED_CHANNEL = 'catalogue_finished';

/**
 * Inside the publishing transaction: the next generation, and derived data complete. The WAL
 * position here is short of the commit; announceGeneration records the one past it.
 */
export async function bumpGeneration(tx: TransactionSql): Promise<number> {
  const [row] = await tx<Array<{ generation: string }>>`
    UPDATE catalogue_state
    SET generation = generation + 1, finished_at = now(), finished_lsn = pg_current_wal_lsn()::text, derived_stale = false
    RETURNING generation::text AS generation`;
  if (!row) throw new Error('catalogue_state has no row: run the migrations');
  return Number(row.generation);
}

/** After that commit: the WAL position it reached, told to every serving process. */
export function announceGeneration(sql: Sql): Promise<{ generation: number; lsn: string }> {
  return stampGeneration(sql, false);
}

/** Both at once: a finish() with nothing to publish (an unchanged re-import) only advances it. */
export function advanceGeneration(sql: Sql): Promise<{ generation: number; lsn: string }> {
  return stampGeneration(sql, true);
}

/** Records the WAL position (and with `advance`, a new generation) and notifies it, in one statement. */
async function stampGeneration(sql: Sql, advance: boolean): Promise<{ generation: number; lsn: string }> {
  const advanced = advance ? sql`generation = generation + 1, finished_at = now(), derived_stale = false,` : sql``;
  const [row] = await sql<Array<{ generation: string; lsn: string }>>`
    WITH stamped AS (
      UPDATE catalogue_state SET ${advanced} finished_lsn = pg_current_wal_lsn()::text
      RETURNING generation, finished_lsn
    )
    SELECT generation::text AS generation, finished_lsn AS lsn,
           pg_notify(${CATALOGUE_FINISHED_CHANNEL}, generation::text || ' ' || finished_lsn)
    FROM stamped`;
  if (!row) throw new Error('catalogue_state has no row: run the migrations');
  return { generation: Number(row.generation), lsn: row.lsn };
}
