/** The usage jobs' bookkeeping in memory (the UsageJobs slice; PostgreSQL's is accounts/usage-jobs.ts). */
import type { UsageJobs } from '../../ports/index.js';
import { TIERS } from '../../tiers.js';
import type { AccountTables } from './tables.js';

const monthKey = (customerId: string, month: string) => `${customerId}:${month}`;

export function usageJobs(tables: AccountTables): UsageJobs {
  const { customers, overage, contractReviews } = tables;
  return {
    async listCustomersForUsageReview() {
      return [...customers.values()].filter((c) => c.status !== 'canceled' && (c.overage === 'bill' || TIERS[c.tier].contract)).map((c) => ({ ...c }));
    },
    async getOverageCursor(customerId, month) {
      return { ...(overage.get(monthKey(customerId, month)) ?? { reported: 0, pending: null }) };
    },
    async setOveragePending(customerId, month, through, from) {
      const k = monthKey(customerId, month);
      const cursor = overage.get(k) ?? { reported: 0, pending: null };
      if (cursor.reported !== from || cursor.pending !== null) return false;
      overage.set(k, { reported: from, pending: through });
      return true;
    },
    async commitOverage(customerId, month, through) {
      const k = monthKey(customerId, month);
      const cursor = overage.get(k) ?? { reported: 0, pending: null };
      overage.set(k, { reported: Math.max(cursor.reported, through), pending: cursor.pending !== null && cursor.pending > through ? cursor.pending : null });
    },
    async claimContractReview(customerId, month) {
      const k = monthKey(customerId, month);
      if (contractReviews.has(k)) return false;
      contractReviews.add(k);
      return true;
    },
  };
}
