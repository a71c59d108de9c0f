import type { CatalogueWriter } from '@catalogue/core';
import type { BulkTarget } from './import-discogs-bulk.js';

/** What the CLI needs from a database: the bulk writer, the migrations, a way to let go. */
export interface CatalogueDatabase {
  writer: CatalogueWriter;
  /** Applies pending migrations; returns the ids applied now. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
  /** The bulk path of Discogs dumps (COPY from a worker thread); absent: row batches through `writer`. */
  bulk?: BulkTarget;
  /** True when source rows changed since derived data was last completed (migration 0009). */
  derivedStale?(): Promise<boolean>;
  /** Said before the command runs (e.g. which database an embedded import goes to). */
  description?: string;
}

export type OpenDatabase = (url: string) => Promise<CatalogueDatabase>;

/**
 * PostgreSQL through @catalogue/postgres, imported lazily so `--help` and argument errors do
 * not load the driver. Imports run without the API's statement timeout: one merge of a large
 * batch or the derived-data pass of `finish()` may legitimately take longer than 10 s.
 * JIT is off for the import's sessions: its compile time only slows the load's bulk plans.
 */
export const openPostgresDatabase: OpenDatabase = async (url) => {
  const { beginBulkLoad, connectPostgres, createPostgresWriter, migrate } = await import('@catalogue/postgres');
  const sql = connectPostgres(url, { max: 4, statementTimeoutMs: 0, postgres: { connection: { jit: 'off' } } });
  return {
    writer: createPostgresWriter(sql),
    migrate: () => migrate(sql),
    close: () => sql.end({ timeout: 5 }),
    bulk: { url, begin: () => beginBulkLoad(sql) },
    derivedStale: async () => {
      const [row] = await sql<Array<{ stale: boolean }>>`SELECT derived_stale AS stale FROM catalogue_state`;
      return row?.stale ?? false;
    },
  };
};
