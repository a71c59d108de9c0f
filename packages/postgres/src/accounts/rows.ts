/** Row shapes of the accounts tables and their mapping to the port's records. */
import type { ApiKey, Customer, Environment, TierId } from '@catalogue/core';
import type { Sql, TransactionSql } from 'postgres';

/** A pool or an open transaction: helpers run inside either. */
export type Queryable = Sql | TransactionSql;

export interface CustomerRow {
  id: string;
  email: string;
  name: string | null;
  tier: string;
  status: Customer['status'];
  overage: Customer['overage'];
  limits: Customer['limits'];
  past_due_since: Date | null;
  created_at: Date;
  stripe_customer_id: string | null;
  last_billing_event_at: Date | null;
}

export interface KeyRow {
  id: string;
  customer_id: string;
  hash: string;
  display_prefix: string;
  environment: Environment;
  status: ApiKey['status'];
  created_at: Date;
}

export function customerOf(row: CustomerRow): Customer {
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
    stripe_customer_id: row.stripe_customer_id ?? null,
  };
}

export function keyOf(row: KeyRow): ApiKey {
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
