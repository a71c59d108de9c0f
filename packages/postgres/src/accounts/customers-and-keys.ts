/**
 * Customers and their keys (the CustomersAndKeys slice of Accounts): the gate's lookups, issuing
 * keys, and their rotation, revocation and capped creation from the dashboard.
 */
import { abortProbeOf, type CustomersAndKeys, type KeyWithCustomer, type NewCustomer, type NewKey } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { type CustomerRow, customerOf, type KeyRow, keyOf, type Queryable } from './rows.js';

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

    async addKeyCapped(customerId, newKey, maxActive) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          // The customer's row lock serializes creates for one customer: the count below is
          // then the count the insert sees.
          const owner = await tx`SELECT 1 FROM customers WHERE id = ${customerId} FOR UPDATE`;
          if (owner.length === 0) throw new Error(`no customer ${customerId}`);
          const [active] = await tx<Array<{ n: number }>>`
            SELECT count(*)::int AS n FROM api_keys WHERE customer_id = ${customerId} AND status = 'active'`;
          if ((active?.n ?? 0) >= maxActive) return null;
          const [key] = await insertKey(tx, customerId, newKey);
          return keyOf(key as KeyRow);
        }),
      );
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

    async findCustomersByEmail(email) {
      // lower() on both sides matches the customers_email index.
      const rows = await guard.query(
        undefined,
        () => sql<CustomerRow[]>`
        SELECT * FROM customers WHERE lower(email) = lower(${email}) ORDER BY created_at, id`,
      );
      return rows.map(customerOf);
    },

    async rotateKey(customerId, keyId, newKey) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          // The conditional UPDATE is the check: a concurrent rotation of the same key waits on
          // the row lock, then finds it no longer active and changes nothing.
          const [old] = await tx<KeyRow[]>`
            UPDATE api_keys SET status = 'rotated'
            WHERE id = ${keyId} AND customer_id = ${customerId} AND status = 'active'
            RETURNING *`;
          if (!old) return null;
          // A duplicate hash throws here and rolls the rotation back.
          const [key] = await insertKey(tx, customerId, newKey);
          return { old: keyOf(old), key: keyOf(key as KeyRow) };
        }),
      );
    },

    async revokeKey(customerId, keyId) {
      const rows = await guard.query(
        undefined,
        () => sql<KeyRow[]>`
        UPDATE api_keys
        SET status = CASE WHEN status IN ('active', 'suspended') THEN 'revoked' ELSE status END
        WHERE id = ${keyId} AND customer_id = ${customerId}
        RETURNING *`,
      );
      return rows[0] ? keyOf(rows[0]) : null;
    },
  };
}
