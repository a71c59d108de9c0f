/**
 * Accounts in process memory: for the conformance suite, embedding and users' tests. Assembled,
 * as PostgreSQL's is (packages/postgres/src/accounts.ts), from one file per slice of the port
 * under accounts/, over one AccountTables object (accounts/tables.ts).
 */
import type { Accounts, ApiKey, Customer, SearchEvent } from '../ports/index.js';
import { billingState } from './accounts/billing.js';
import { customersAndKeys } from './accounts/customers-and-keys.js';
import { dashboardState } from './accounts/dashboard.js';
import { durableUsage } from './accounts/durable-usage.js';
import { mailOutbox } from './accounts/outbox.js';
import { searchEvents } from './accounts/search-events.js';
import { AccountTables } from './accounts/tables.js';
import { usageJobs } from './accounts/usage-jobs.js';

export interface MemoryAccounts extends Accounts {
  /** Direct access for tests and seeding. */
  readonly customers: Map<string, Customer>;
  readonly keys: Map<string, ApiKey>;
  /** Search-event beacons in arrival order. */
  readonly searchEvents: SearchEvent[];
  /** Every table of the store by name, for tests that scan the stored data (e.g. for leaked secrets). */
  tables(): Record<string, unknown[]>;
}

/** `now`: the clock a usage write without `at` counts its day by (createTestService passes its own). */
export function createMemoryAccounts(options: { now?: () => number } = {}): MemoryAccounts {
  const tables = new AccountTables(options.now ?? Date.now);
  return {
    customers: tables.customers,
    keys: tables.keys,
    searchEvents: tables.searchEvents,
    tables: () => ({
      customers: [...tables.customers.values()],
      keys: [...tables.keys.values()],
      usage: [...tables.usage.entries()],
      customer_billing: [...tables.billing.entries()],
      billing_events: [...tables.billingEvents],
      reveals: [...tables.reveals.values()],
      login_tokens: [...tables.loginTokens.values()],
      sessions: [...tables.sessions.values()],
      outbox: [...tables.outbox.values()],
      overage: [...tables.overage.entries()],
      contract_reviews: [...tables.contractReviews],
    }),
    ...customersAndKeys(tables),
    ...durableUsage(tables),
    ...billingState(tables),
    ...dashboardState(tables),
    ...mailOutbox(tables),
    ...usageJobs(tables),
    ...searchEvents(tables),
  };
}
