/**
 * The usage jobs' bookkeeping (the UsageJobs slice of Accounts): the customers they review, the
 * per-month overage cursor and contract review claims.
 */
import { TIER_IDS, TIERS, type UsageJobs } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { type CustomerRow, customerOf } from './rows.js';

/** Contract tiers come from core's tier table, so SQL never repeats which tiers are contracts. */
const CONTRACT_TIERS: string[] = TIER_IDS.filter((tier) => TIERS[tier].contract);

export function usageJobs(sql: Sql, guard: QueryGuard): UsageJobs {
  return {
    async listCustomersForUsageReview() {
      const rows = await guard.query(
        undefined,
        () => sql<CustomerRow[]>`
        SELECT * FROM customers
        WHERE status <> 'canceled' AND (overage = 'bill' OR tier = ANY(${CONTRACT_TIERS}::text[]))
        ORDER BY created_at, id`,
      );
      return rows.map(customerOf);
    },

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

    async setOveragePending(customerId, month, through, from) {
      // A compare-and-set on the row: of two instances that read the same cursor, the update of
      // the second finds `pending` set (or `reported` moved) and changes nothing. With no row yet,
      // the INSERT is the claim (only from 0), and a racing INSERT meets the conflict arm.
      const rows = await guard.query(
        undefined,
        () => sql`
        INSERT INTO overage_cursors (customer_id, month, reported, pending)
        SELECT ${customerId}, ${month}, 0, ${through} WHERE ${from}::bigint = 0
        ON CONFLICT (customer_id, month) DO UPDATE SET pending = EXCLUDED.pending
          WHERE overage_cursors.reported = ${from} AND overage_cursors.pending IS NULL
        RETURNING 1`,
      );
      if (rows.length === 1) return true;
      if (from === 0) return false;
      const updated = await guard.query(
        undefined,
        () => sql`
        UPDATE overage_cursors SET pending = ${through}
        WHERE customer_id = ${customerId} AND month = ${month} AND reported = ${from} AND pending IS NULL
        RETURNING 1`,
      );
      return updated.length === 1;
    },

    async commitOverage(customerId, month, through) {
      await guard.query(
        undefined,
        () => sql`
        INSERT INTO overage_cursors (customer_id, month, reported, pending) VALUES (${customerId}, ${month}, ${through}, NULL)
        ON CONFLICT (customer_id, month) DO UPDATE SET
          reported = GREATEST(overage_cursors.reported, EXCLUDED.reported),
          pending = CASE WHEN overage_cursors.pending > EXCLUDED.reported THEN overage_cursors.pending END`,
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
