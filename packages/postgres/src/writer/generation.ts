/**
 * The last step of finish(): the catalogue's generation advances, with the WAL position the
 * import reached, and every serving process is told (migration 0008). Everything finish() wrote
 * was committed before this statement, so a replica that has replayed `finished_lsn` holds all
 * of it. The same statement clears derived_stale (migration 0009): derived data is complete.
 */
import type { Sql } from 'postgres';

export const CATALOGUE_FINISHED_CHANNEL = 'catalogue_finished';

export async function advanceGeneration(sql: Sql): Promise<{ generation: number; lsn: string }> {
  const [row] = await sql<Array<{ generation: string; lsn: string }>>`
    WITH advanced AS (
      UPDATE catalogue_state
      SET generation = generation + 1, finished_at = now(), finished_lsn = pg_current_wal_lsn()::text, derived_stale = false
      RETURNING generation, finished_lsn
    )
    SELECT generation::text AS generation, finished_lsn AS lsn,
           pg_notify(${CATALOGUE_FINISHED_CHANNEL}, generation::text || ' ' || finished_lsn)
    FROM advanced`;
  if (!row) throw new Error('catalogue_state has no row: run the migrations');
  return { generation: Number(row.generation), lsn: row.lsn };
}
