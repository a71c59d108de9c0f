/** @catalogue/postgres: the Catalogue and Accounts ports on PostgreSQL through postgres.js. */
export { createPostgresAccounts, readSearchEvents } from './accounts.js';
export {
  type BackstopOptions,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  databaseUnavailable,
  guardFor,
  isLostConnection,
  poolExhausted,
  QueryGuard,
  queryTimeout,
  requestAborted,
} from './backstops.js';
export { type BulkLoad, beginBulkLoad } from './bulk/bulk-load.js';
export { BULK_COLUMNS, BULK_ID, BULK_TABLES, type BulkRowOf, type BulkTable, bulkIdOf, bulkLine, type SlugBasesSeen } from './bulk/bulk-rows.js';
export { createPostgresCatalogue, type PostgresCatalogueOptions } from './catalogue/index.js';
export { DEFAULT_RECORD_CACHE_BYTES, RecordCache } from './catalogue/record-cache.js';
export { DEFAULT_TYPO_HINT_BYTES, VocabularyHint } from './catalogue/vocabulary-hint.js';
export { type ConnectOptions, connectPostgres } from './connect.js';
export { MIGRATION_LOCK_KEY, type Migration, migrate } from './migrate.js';
export { MIGRATIONS } from './migrations.generated.js';
export { noDelaySocket } from './no-delay-socket.js';
export { outboxDepth } from './outbox-depth.js';
export { postgresProbe } from './readiness.js';
export { type CatalogueGeneration, type GenerationState, watchCatalogueGeneration } from './replicas/catalogue-generation.js';
export { ReplicaSet, type ReplicaStatus } from './replicas/replica-set.js';
export { createReplicatedCatalogue, type ReplicatedCatalogue, type ReplicatedCatalogueOptions } from './replicas/replicated-catalogue.js';
export { advanceGeneration, CATALOGUE_FINISHED_CHANNEL } from './writer/generation.js';
export { createPostgresWriter, type WriterOptions } from './writer/index.js';
export type { StagingMode } from './writer/staging.js';
