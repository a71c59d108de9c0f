/** @catalogue/postgres: the Catalogue and Accounts ports on PostgreSQL through postgres.js. */
export { createPostgresAccounts, readSearchEvents, type PostgresAccounts } from './accounts.js';
export {
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  guardFor,
  poolExhausted,
  QueryGuard,
  queryTimeout,
  requestAborted,
  type BackstopOptions,
} from './backstops.js';
export { createPostgresCatalogue, type PostgresCatalogueOptions } from './catalogue/index.js';
export { connectPostgres, type ConnectOptions } from './connect.js';
export { migrate, MIGRATION_LOCK_KEY, type Migration } from './migrate.js';
export { MIGRATIONS } from './migrations.generated.js';
export { createPostgresWriter, type WriterOptions } from './writer/index.js';
export type { StagingMode } from './writer/staging.js';
