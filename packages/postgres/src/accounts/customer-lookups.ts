/** Customer reads for the dashboard, the webhook and the usage jobs, and the overage setting. */
import { type Accounts, TIER_IDS, TIERS } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { type CustomerRow, customerOf } from './rows.js';

export type CustomerLookups = Pick<Accounts, 'findCustomerByCheckoutSession' | 'findCustomersByEmail' | 'listCustomersForUsageReview' | 'setOverage'>;

/** Contract tiers come from core's tier table, so SQL never repeats which tiers are contracts. */
const CONTRACT_TIERS: string[] = TIER_IDS.filter((tier) => TIERS[tier].contract);

export function customerLookups(sql: Sql, guard: QueryGuard): CustomerLookups {
  return {
    async findCustomerByCheckoutSession(checkoutSessionId) {
      const rows = await guard.query(undefined, () => sql<CustomerRow[]>`SELECT * FROM customers WHERE checkout_session_id = ${checkoutSessionId}`);
      return rows[0] ? customerOf(rows[0]) : null;
    },

    async findCustomersByEmail(email) {
      // lower() on both sides matches the customers_email index.
      const rows = await guard.query(
        undefined,
        () => sql<CustomerRow[]>`
        SELECT * FROM customers WHERE lower(email) = lower(${email}) ORDER BY created_at, id`,
      );
      return rows.map(customerOf);
    },

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

    async setOverage(customerId, overage) {
      const rows = await guard.query(
        undefined,
        () => sql<CustomerRow[]>`
        UPDATE customers SET overage = ${overage} WHERE id = ${customerId} RETURNING *`,
      );
      return rows[0] ? customerOf(rows[0]) : null;
    },
  };
}
