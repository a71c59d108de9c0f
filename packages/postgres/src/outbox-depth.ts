/**
 * The mail outbox's depth for the metrics endpoint (docs/decisions.md §8, "Access log and
 * metrics"): rows not yet sent, still retried (`pending`) or given up on (`dead`, the alarm
 * was raised). Read at scrape time, on the partial index's rows only.
 */
import type { Sql } from 'postgres';

export async function outboxDepth(sql: Sql): Promise<{ pending: number; dead: number }> {
  const [row] = await sql<Array<{ pending: number; dead: number }>>`
    SELECT count(*) FILTER (WHERE NOT dead)::int AS pending, count(*) FILTER (WHERE dead)::int AS dead
    FROM outbox WHERE sent_at IS NULL`;
  return { pending: row?.pending ?? 0, dead: row?.dead ?? 0 };
}
