/**
 * The Accounts port on PostgreSQL, assembled from one file per slice of the port under
 * accounts/ (packages/core/src/ports/accounts.ts names them). Every method is one statement or
 * one transaction; all share the backstops of their `sql`.
 */
import type { Accounts } from '@catalogue/core';
import type { Sql } from 'postgres';
import { billingState } from './accounts/billing.js';
import { customersAndKeys } from './accounts/customers-and-keys.js';
import { dashboardState } from './accounts/dashboard.js';
import { durableUsage } from './accounts/durable-usage.js';
import { mailOutbox } from './accounts/outbox.js';
import { searchEvents } from './accounts/search-events.js';
import { usageJobs } from './accounts/usage-jobs.js';
import { type BackstopOptions, guardFor } from './backstops.js';

export function createPostgresAccounts(sql: Sql, options: BackstopOptions = {}): Accounts {
  const guard = guardFor(sql, options);
  return {
    ...customersAndKeys(sql, guard),
    ...durableUsage(sql, guard),
    ...billingState(sql, guard),
    ...dashboardState(sql, guard),
    ...mailOutbox(sql, guard),
    ...usageJobs(sql, guard),
    ...searchEvents(sql, guard),
  };
}

export { readSearchEvents } from './accounts/search-events.js';
