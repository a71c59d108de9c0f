/** The usage jobs' bookkeeping: the per-month overage cursor and contract review claims. */
import type { Accounts } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';

export type UsageJobs = Pick<Accounts, 'getOverageCursor' | 'setOveragePending' | 'commitOverage' | 'claimContractReview'>;

export function usageJobs(sql: Sql, guard: QueryGuard): UsageJobs {
  return {
    async getOverageCursor(customerId, month) {
      // bigint arrives as text from postgres.js; counts stay far below 2^53.
      const rows = await guard.query(
        undefined,
        () => sql<Array<{ reported: string; pending: string | null }>>`
        SELECT reported::text AS reported, pending::text AS pending FROM overage_cursors
        WHERE customer_id = ${customerId} AND month = ${month}`,
      );
      const row = rows[0];
      return row ? { reported: Number(row.reported), pending: row.pending === null ? null : Number(row.pending) } : { reported: 0, pending: null };
    },

    async setOveragePending(customerId, month, through) {
      await guard.query(
        undefined,
        () => sql`
        INSERT INTO overage_cursors (customer_id, month, reported, pending) VALUES (${customerId}, ${month}, 0, ${through})
        ON CONFLICT (customer_id, month) DO UPDATE SET pending = EXCLUDED.pending`,
      );
    },

    async commitOverage(customerId, month, through) {
      await guard.query(
        undefined,
        () => sql`
        INSERT INTO overage_cursors (customer_id, month, reported, pending) VALUES (${customerId}, ${month}, ${through}, NULL)
        ON CONFLICT (customer_id, month) DO UPDATE SET reported = EXCLUDED.reported, pending = NULL`,
      );
    },

    async claimContractReview(customerId, month) {
      const rows = await guard.query(
        undefined,
        () => sql`
        INSERT INTO contract_review_claims (customer_id, month) VALUES (${customerId}, ${month})
        ON CONFLICT (customer_id, month) DO NOTHING RETURNING month`,
      );
      return rows.length === 1;
    },
  };
}
