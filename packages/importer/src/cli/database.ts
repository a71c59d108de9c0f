import { join } from 'node:path';
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

export interface OpenOptions {
  /** Told how long each step of finish() took. */
  onStep?: (step: string, seconds: number) => void;
}

export type OpenDatabase = (url: string, options?: OpenOptions) => Promise<CatalogueDatabase>;

/**
 * PostgreSQL through @catalogue/postgres, imported lazily so `--help` and argument errors do
 * not load the driver. Imports run without the API's statement timeout: one merge of a large
 * batch or the derived-data pass of `finish()` may legitimately take longer than 10 s.
 * JIT is off for the import's sessions: its compile time only slows the load's bulk plans.
 */
export const openPostgresDatabase: OpenDatabase = async (url, options = {}) => {
  const { beginBulkLoad, connectPostgres, createPostgresWriter, migrate } = await import('@catalogue/postgres');
  const sql = connectPostgres(url, { max: 4, statementTimeoutMs: 0, postgres: { connection: { jit: 'off' } } });
  return {
    // The URL lets finish()'s worker threads connect on their own (writer/derived-threads.ts).
    writer: createPostgresWriter(sql, { databaseUrl: url, ...(options.onStep ? { onFinishStep: options.onStep } : {}) }),
    migrate: () => migrate(sql),
    close: () => sql.end({ timeout: 5 }),
    bulk: { url, begin: () => beginBulkLoad(sql) },
    derivedStale: async () => {
      const [row] = await sql<Array<{ stale: boolean }>>`SELECT derived_stale AS stale FROM catalogue_state`;
      return row?.stale ?? false;
    },
  };
};

export type OpenEmbeddedDatabase = (dataDir: string) => Promise<CatalogueDatabase>;

/**
 * The embedded default (no DATABASE_URL): the PGlite data dir `npm start` serves
 * (docs/decisions.md §1), opened in this process. Only one process may hold it, so while the
 * server runs this refuses with the server's pid. PGlite's socket server speaks no COPY, so
 * rows go through the writer's parameter staging in batches, not the bulk path.
 */
export const openEmbeddedDatabase: OpenEmbeddedDatabase = async (dataDir) => {
  const [{ connectPostgres, createPostgresWriter, migrate }, embedded] = await Promise.all([
    import('@catalogue/postgres'),
    import('@catalogue/postgres/embedded'),
  ]);
  const server = await embedded.startEmbeddedPostgres({ dataDir });
  const sql = connectPostgres(server.url, { ...embedded.EMBEDDED_CONNECT_OPTIONS, statementTimeoutMs: 0 });
  return {
    writer: createPostgresWriter(sql, embedded.EMBEDDED_WRITER_OPTIONS),
    migrate: () => migrate(sql),
    close: async () => {
      await sql.end({ timeout: 5 });
      await server.stop();
    },
    derivedStale: async () => {
      const [row] = await sql<Array<{ stale: boolean }>>`SELECT derived_stale AS stale FROM catalogue_state`;
      return row?.stale ?? false;
    },
    description: `catalogue: no DATABASE_URL: using the embedded database in ${join(dataDir, 'pg')} (the one \`npm start\` serves)`,
  };
};
