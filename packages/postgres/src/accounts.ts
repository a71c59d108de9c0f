/** The Accounts port on PostgreSQL: customers, keys by hash, durable monthly usage. */
import type { Accounts, ApiKey, Customer, Environment, KeyWithCustomer, NewCustomer, NewKey, TierId } from '@catalogue/core';
import type { Sql, TransactionSql } from 'postgres';
import { type BackstopOptions, guardFor } from './backstops.js';

interface CustomerRow {
  id: string;
  email: string;
  name: string | null;
  tier: string;
  status: Customer['status'];
  overage: Customer['overage'];
  limits: Customer['limits'];
  past_due_since: Date | null;
  created_at: Date;
}

interface KeyRow {
  id: string;
  customer_id: string;
  hash: string;
  display_prefix: string;
  environment: Environment;
  status: ApiKey['status'];
  created_at: Date;
}

function customerOf(row: CustomerRow): Customer {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    tier: row.tier as TierId,
    status: row.status,
    overage: row.overage,
    limits: row.limits ?? null,
    past_due_since: row.past_due_since,
    created_at: row.created_at,
  };
}

function keyOf(row: KeyRow): ApiKey {
  return {
    id: row.id,
    customer_id: row.customer_id,
    hash: row.hash,
    display_prefix: row.display_prefix,
    environment: row.environment,
    status: row.status,
    created_at: row.created_at,
  };
}

/**
 * The part of the Accounts port implemented here: keys, customers, grace expiry and usage.
 * The port has since grown (billing events, sessions, outbox, reveals, search events); those
 * members are not implemented yet.
 */
export type PostgresAccounts = Pick<
  Accounts,
  'findKeyByHash' | 'createCustomerWithKey' | 'addKey' | 'getCustomer' | 'listKeys' | 'suspendExpiredGrace' | 'addUsage' | 'getUsage'
>;

export function createPostgresAccounts(sql: Sql, options: BackstopOptions = {}): PostgresAccounts {
  const guard = guardFor(sql, options);

  const insertKey = (tx: Sql | TransactionSql, customerId: string, key: NewKey) =>
    tx<KeyRow[]>`
      INSERT INTO api_keys (id, customer_id, hash, display_prefix, environment, status, created_at)
      VALUES (${key.id}, ${customerId}, ${key.hash}, ${key.display_prefix}, ${key.environment}, 'active', ${key.created_at})
      RETURNING id, customer_id, hash, display_prefix, environment, status, created_at`;

  return {
    async findKeyByHash(hash, callOptions) {
      const rows = await guard.query(callOptions?.signal, () => sql<Array<{ key: KeyRow; customer: CustomerRow }>>`
        SELECT row_to_json(k.*) AS key, row_to_json(c.*) AS customer
        FROM api_keys k JOIN customers c ON c.id = k.customer_id
        WHERE k.hash = ${hash}`);
      const row = rows[0];
      if (!row) return null;
      // row_to_json gives timestamps as text; the port speaks Date.
      const key = { ...row.key, created_at: new Date(row.key.created_at) };
      const customer = {
        ...row.customer,
        created_at: new Date(row.customer.created_at),
        past_due_since: row.customer.past_due_since === null ? null : new Date(row.customer.past_due_since),
      };
      return { key: keyOf(key), customer: customerOf(customer) };
    },

    async createCustomerWithKey(input: NewCustomer, key: NewKey): Promise<KeyWithCustomer> {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          const [customer] = await tx<CustomerRow[]>`
            INSERT INTO customers (id, email, name, tier, status, overage, limits, created_at)
            VALUES (${input.id}, ${input.email}, ${input.name}, ${input.tier}, 'active', ${input.overage ?? 'block'},
                    ${input.limits ? tx.json(input.limits as Record<string, number>) : null}, ${input.created_at})
            RETURNING *`;
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
      const rows = await guard.query(undefined, () => sql<KeyRow[]>`
        SELECT id, customer_id, hash, display_prefix, environment, status, created_at
        FROM api_keys WHERE customer_id = ${customerId} ORDER BY created_at, id`);
      return rows.map(keyOf);
    },

    async suspendExpiredGrace(now, graceMs) {
      const cutoff = new Date(now.getTime() - graceMs);
      const rows = await guard.query(undefined, () => sql`
        UPDATE api_keys k SET status = 'suspended'
        FROM customers c
        WHERE c.id = k.customer_id AND c.status = 'past_due' AND c.past_due_since IS NOT NULL
          AND c.past_due_since <= ${cutoff} AND k.status = 'active'
        RETURNING k.id`);
      return rows.length;
    },

    async addUsage(customerId, environment, month, delta) {
      await guard.query(undefined, () => sql`
        INSERT INTO usage_months (customer_id, environment, month, count)
        VALUES (${customerId}, ${environment}, ${month}, ${delta})
        ON CONFLICT (customer_id, environment, month)
        DO UPDATE SET count = usage_months.count + EXCLUDED.count, updated_at = now()`);
    },

    async getUsage(customerId, environment, month) {
      const rows = await guard.query(undefined, () => sql<Array<{ count: string }>>`
        SELECT count::text AS count FROM usage_months
        WHERE customer_id = ${customerId} AND environment = ${environment} AND month = ${month}`);
      return rows[0] ? Number(rows[0].count) : 0;
    },
  };
}
