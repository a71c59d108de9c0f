/** Customers, keys by hash, grace expiry and durable usage: the gate's and the admin's part of Accounts. */
import { type Accounts, abortProbeOf, type KeyWithCustomer, type NewCustomer, type NewKey, usageDay } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { type CustomerRow, customerOf, type KeyRow, keyOf, type Queryable } from './rows.js';

export type CustomersAndKeys = Pick<
  Accounts,
  | 'findKeyByHash'
  | 'findKeyById'
  | 'createCustomerWithKey'
  | 'addKey'
  | 'getCustomer'
  | 'listKeys'
  | 'suspendExpiredGrace'
  | 'addUsage'
  | 'getUsage'
  | 'getDailyUsage'
>;

export function insertKey(tx: Queryable, customerId: string, key: NewKey) {
  return tx<KeyRow[]>`
    INSERT INTO api_keys (id, customer_id, hash, display_prefix, environment, status, created_at)
    VALUES (${key.id}, ${customerId}, ${key.hash}, ${key.display_prefix}, ${key.environment}, 'active', ${key.created_at})
    RETURNING *`;
}

/** Billing columns are set only by checkout completion; admin-issued customers have none. */
export interface CustomerBilling {
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  checkoutSessionId: string | null;
  lastBillingEventAt: Date | null;
}

const NO_BILLING: CustomerBilling = { stripeCustomerId: null, stripeSubscriptionId: null, checkoutSessionId: null, lastBillingEventAt: null };

/**
 * Inserts an active customer. A customer for the same checkout session already present (or
 * inserted by a concurrent transaction that commits) yields no row instead of an error, so
 * the caller can answer duplicate_session; any other conflict (id) still throws.
 */
export function insertCustomer(tx: Queryable, input: NewCustomer, billing: CustomerBilling = NO_BILLING) {
  return tx<CustomerRow[]>`
    INSERT INTO customers (id, email, name, tier, status, overage, limits, created_at,
                           stripe_customer_id, stripe_subscription_id, checkout_session_id, last_billing_event_at)
    VALUES (${input.id}, ${input.email}, ${input.name}, ${input.tier}, 'active', ${input.overage ?? 'block'},
            ${input.limits ? tx.json(input.limits as Record<string, number>) : null}, ${input.created_at},
            ${billing.stripeCustomerId}, ${billing.stripeSubscriptionId}, ${billing.checkoutSessionId}, ${billing.lastBillingEventAt})
    ON CONFLICT (checkout_session_id) WHERE checkout_session_id IS NOT NULL DO NOTHING
    RETURNING *`;
}

type KeyJoinRow = { key: KeyRow; customer: CustomerRow };

function keyWithCustomerOf(row: KeyJoinRow | undefined): KeyWithCustomer | null {
  if (!row) return null;
  // row_to_json gives timestamps as text; the port speaks Date.
  const key = { ...row.key, created_at: new Date(row.key.created_at) };
  const customer = {
    ...row.customer,
    created_at: new Date(row.customer.created_at),
    past_due_since: row.customer.past_due_since === null ? null : new Date(row.customer.past_due_since),
  };
  return { key: keyOf(key), customer: customerOf(customer) };
}

export function customersAndKeys(sql: Sql, guard: QueryGuard): CustomersAndKeys {
  return {
    async findKeyByHash(hash, lifetime) {
      const rows = await guard.query(
        abortProbeOf(lifetime),
        () => sql<KeyJoinRow[]>`
        SELECT row_to_json(k.*) AS key, row_to_json(c.*) AS customer
        FROM api_keys k JOIN customers c ON c.id = k.customer_id
        WHERE k.hash = ${hash}`,
      );
      return keyWithCustomerOf(rows[0]);
    },

    async findKeyById(keyId, lifetime) {
      const rows = await guard.query(
        abortProbeOf(lifetime),
        () => sql<KeyJoinRow[]>`
        SELECT row_to_json(k.*) AS key, row_to_json(c.*) AS customer
        FROM api_keys k JOIN customers c ON c.id = k.customer_id
        WHERE k.id = ${keyId}`,
      );
      return keyWithCustomerOf(rows[0]);
    },

    async createCustomerWithKey(input: NewCustomer, key: NewKey): Promise<KeyWithCustomer> {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          const [customer] = await insertCustomer(tx, input);
          const [stored] = await insertKey(tx, input.id, key);
          return { customer: customerOf(customer as CustomerRow), key: keyOf(stored as KeyRow) };
        }),
      );
    },

    async addKey(customerId, key) {
      const rows = await guard.run(undefined, async () => {
        const known = await sql`SELECT 1 FROM customers WHERE id = ${customerId}`;
        if (known.length === 0) throw new Error(`no customer ${customerId}`);
        return insertKey(sql, customerId, key);
      });
      return keyOf(rows[0] as KeyRow);
    },

    async getCustomer(customerId) {
      const rows = await guard.query(undefined, () => sql<CustomerRow[]>`SELECT * FROM customers WHERE id = ${customerId}`);
      return rows[0] ? customerOf(rows[0]) : null;
    },

    async listKeys(customerId) {
      const rows = await guard.query(
        undefined,
        () => sql<KeyRow[]>`
        SELECT * FROM api_keys WHERE customer_id = ${customerId} ORDER BY created_at, id`,
      );
      return rows.map(keyOf);
    },

    async suspendExpiredGrace(now, graceMs) {
      const cutoff = new Date(now.getTime() - graceMs);
      const rows = await guard.query(
        undefined,
        () => sql`
        UPDATE api_keys k SET status = 'suspended'
        FROM customers c
        WHERE c.id = k.customer_id AND c.status = 'past_due' AND c.past_due_since IS NOT NULL
          AND c.past_due_since <= ${cutoff} AND k.status = 'active'
        RETURNING k.id`,
      );
      return rows.length;
    },

    async addUsage(customerId, environment, month, delta, at) {
      // One statement: the month's count and the day's move together (migration 0012).
      const day = usageDay(month, at?.getTime() ?? Date.now());
      await guard.query(
        undefined,
        () => sql`
        WITH by_month AS (
          INSERT INTO usage_months (customer_id, environment, month, count)
          VALUES (${customerId}, ${environment}, ${month}, ${delta})
          ON CONFLICT (customer_id, environment, month)
          DO UPDATE SET count = usage_months.count + EXCLUDED.count, updated_at = now()
        )
        INSERT INTO usage_days (customer_id, environment, month, day, count)
        VALUES (${customerId}, ${environment}, ${month}, ${day}::date, ${delta})
        ON CONFLICT (customer_id, environment, month, day)
        DO UPDATE SET count = usage_days.count + EXCLUDED.count`,
      );
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
  };
}
