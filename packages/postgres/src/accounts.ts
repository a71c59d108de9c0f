/**
 * The Accounts port on PostgreSQL, assembled from one file per concern under accounts/.
 * Every method is one statement or one transaction; all share the backstops of their `sql`.
 */
import type { Accounts } from '@catalogue/core';
import type { Sql } from 'postgres';
import { billingWebhooks } from './accounts/billing.js';
import { customerLookups } from './accounts/customer-lookups.js';
import { customersAndKeys } from './accounts/customers-and-keys.js';
import { dashboardState } from './accounts/dashboard.js';
import { keyLifecycle } from './accounts/key-lifecycle.js';
import { outbox } from './accounts/outbox.js';
import { searchEvents } from './accounts/search-events.js';
import { usageFlushes } from './accounts/usage-flushes.js';
import { usageJobs } from './accounts/usage-jobs.js';
import { type BackstopOptions, guardFor } from './backstops.js';

export function createPostgresAccounts(sql: Sql, options: BackstopOptions = {}): Accounts {
  const guard = guardFor(sql, options);
  return {
    ...customersAndKeys(sql, guard),
    ...billingWebhooks(sql, guard),
    ...customerLookups(sql, guard),
    ...keyLifecycle(sql, guard),
    ...dashboardState(sql, guard),
    ...outbox(sql, guard),
    ...usageJobs(sql, guard),
    ...searchEvents(sql, guard),
    ...usageFlushes(sql, guard),
  };
}

export { readSearchEvents } from './accounts/search-events.js';
