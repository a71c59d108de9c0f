import type { CatalogueWriter } from '@catalogue/core';

/** What the CLI needs from a database: the bulk writer, the migrations, a way to let go. */
export interface CatalogueDatabase {
  writer: CatalogueWriter;
  /** Applies pending migrations; returns the ids applied now. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export type OpenDatabase = (url: string) => Promise<CatalogueDatabase>;

/**
 * PostgreSQL through @catalogue/postgres, imported lazily so `--help` and argument errors do
 * not load the driver. Imports run without the API's statement timeout: one merge of a large
 * batch or the derived-data pass of `finish()` may legitimately take longer than 10 s.
 */
export const openPostgresDatabase: OpenDatabase = async (url) => {
  const { connectPostgres, createPostgresWriter, migrate } = await import('@catalogue/postgres');
  const sql = connectPostgres(url, { max: 4, statementTimeoutMs: 0 });
  return {
    writer: createPostgresWriter(sql),
    migrate: () => migrate(sql),
    close: () => sql.end({ timeout: 5 }),
  };
};
