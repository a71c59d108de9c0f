/**
 * Durable usage (the DurableUsage slice of Accounts): the month's and the day's calls per
 * customer and environment (migration 0012), and the flushes of Redis's shared month counters
 * (migration 0017, issue 27): any
 * instance may flush any counter, a flush repeated after a crash adds nothing twice, and calls
 * made durable one by one (an instance stopping while Redis is down) are skipped by the flushes
 * of ranges that hold them. Each method is one transaction that first locks its generation's
 * usage_flushes row, so a flush and a direct write of one generation never interleave (each
 * statement after the lock sees what the other committed).
 */
import { type DurableUsage, type Environment, usageDay } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import type { Queryable } from './rows.js';

interface Generation {
  customerId: string;
  environment: Environment;
  month: string;
  generation: string;
}

/** The generation's row, made if missing (nothing flushed: 0), locked; answers its `upto`. */
async function lockGeneration(tx: Queryable, g: Generation): Promise<number> {
  await tx`
    INSERT INTO usage_flushes (customer_id, environment, month, generation, upto, delta)
    VALUES (${g.customerId}, ${g.environment}, ${g.month}, ${g.generation}, 0, 0)
    ON CONFLICT (customer_id, environment, month, generation) DO NOTHING`;
  const [row] = await tx<Array<{ upto: string }>>`
    SELECT upto::text AS upto FROM usage_flushes
    WHERE customer_id = ${g.customerId} AND environment = ${g.environment} AND month = ${g.month} AND generation = ${g.generation}
    FOR UPDATE`;
  return Number(row?.upto ?? 0);
}

/** Adds `delta` to the month and to the day of `at`, in one statement (addUsage, and each flush). */
function addToMonth(tx: Queryable, g: Pick<Generation, 'customerId' | 'environment' | 'month'>, delta: number, at: Date | undefined) {
  const day = usageDay(g.month, at?.getTime() ?? Date.now());
  return tx`
    WITH by_month AS (
      INSERT INTO usage_months (customer_id, environment, month, count)
      VALUES (${g.customerId}, ${g.environment}, ${g.month}, ${delta})
      ON CONFLICT (customer_id, environment, month)
      DO UPDATE SET count = usage_months.count + EXCLUDED.count, updated_at = now()
    )
    INSERT INTO usage_days (customer_id, environment, month, day, count)
    VALUES (${g.customerId}, ${g.environment}, ${g.month}, ${day}::date, ${delta})
    ON CONFLICT (customer_id, environment, month, day)
    DO UPDATE SET count = usage_days.count + EXCLUDED.count`;
}

export function durableUsage(sql: Sql, guard: QueryGuard): DurableUsage {
  return {
    async addUsage(customerId, environment, month, delta, at) {
      // One statement: the month's count and the day's move together (migration 0012).
      await guard.query(undefined, () => addToMonth(sql, { customerId, environment, month }, delta, at));
    },

    async getUsage(customerId, environment, month) {
      const rows = await guard.query(
        undefined,
        () => sql<Array<{ count: string }>>`
        SELECT count::text AS count FROM usage_months
        WHERE customer_id = ${customerId} AND environment = ${environment} AND month = ${month}`,
      );
      return rows[0] ? Number(rows[0].count) : 0;
    },

    async getDailyUsage(customerId, environment, month) {
      const rows = await guard.query(
        undefined,
        () => sql<Array<{ day: string; count: string }>>`
        SELECT to_char(day, 'YYYY-MM-DD') AS day, count::text AS count FROM usage_days
        WHERE customer_id = ${customerId} AND environment = ${environment} AND month = ${month} AND count > 0
        ORDER BY day`,
      );
      return rows.map((row) => ({ day: row.day, count: Number(row.count) }));
    },

    flushUsage(flush) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          const start = Math.max(flush.from, await lockGeneration(tx, flush));
          if (flush.upto <= start) return 0;
          const [direct] = await tx<Array<{ calls: string }>>`
            SELECT count(*)::text AS calls FROM usage_direct
            WHERE customer_id = ${flush.customerId} AND environment = ${flush.environment} AND month = ${flush.month}
              AND generation = ${flush.generation} AND position > ${start} AND position <= ${flush.upto}`;
          const delta = flush.upto - start - Number(direct?.calls ?? 0);
          await tx`
            UPDATE usage_flushes SET upto = ${flush.upto}, delta = ${delta}, flushed_at = now()
            WHERE customer_id = ${flush.customerId} AND environment = ${flush.environment} AND month = ${flush.month}
              AND generation = ${flush.generation}`;
          if (delta > 0) await addToMonth(tx, flush, delta, flush.at);
          return Math.max(0, delta);
        }),
      );
    },

    async getUsageFlushed(customerId, environment, month, generation) {
      const rows = await guard.query(
        undefined,
        () => sql<Array<{ upto: string }>>`
        SELECT upto::text AS upto FROM usage_flushes
        WHERE customer_id = ${customerId} AND environment = ${environment} AND month = ${month} AND generation = ${generation}`,
      );
      return rows[0] ? Number(rows[0].upto) : null;
    },

    addUsageDirect(direct) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          const flushed = await lockGeneration(tx, direct);
          const positions = direct.positions.filter((position) => position > flushed);
          if (positions.length === 0) return 0;
          const inserted = await tx`
            INSERT INTO usage_direct (customer_id, environment, month, generation, position)
            SELECT ${direct.customerId}, ${direct.environment}, ${direct.month}, ${direct.generation}, p
            FROM unnest(${positions}::bigint[]) AS p
            ON CONFLICT DO NOTHING
            RETURNING position`;
          if (inserted.length > 0) await addToMonth(tx, direct, inserted.length, direct.at);
          return inserted.length;
        }),
      );
    },
  };
}
