/**
 * Throwaway databases for tests: a fresh `catalogue_test_<random>` on the PostgreSQL server at
 * 127.0.0.1:5432 (dropped afterwards), or an in-memory PGlite served in process.
 */
import type { CatalogueData } from '@catalogue/core';
import { connectPostgres, createPostgresWriter, migrate, type StagingMode } from '@catalogue/postgres';
import { startPgliteServer } from '@catalogue/postgres/embedded';
import postgres, { type Sql } from 'postgres';

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  sql: Sql;
  url: string;
  staging: StagingMode;
  /** Opens another pool on the same database (own settings, e.g. a short statement timeout). */
  connect(options?: { max?: number; statementTimeoutMs?: number }): Sql;
  drop(): Promise<void>;
}

export async function createPostgresDatabase(options: { max?: number; statementTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const admin = postgres(POSTGRES_ADMIN_URL, { max: 1, onnotice: () => undefined });
  const name = `catalogue_test_${Math.random().toString(36).slice(2, 10)}`;
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const pools: Sql[] = [];
  const connect = (o: { max?: number; statementTimeoutMs?: number } = {}) => {
    const sql = connectPostgres(url.toString(), { max: o.max ?? 4, ...(o.statementTimeoutMs ? { statementTimeoutMs: o.statementTimeoutMs } : {}) });
    pools.push(sql);
    return sql;
  };
  const sql = connect(options);
  return {
    sql,
    url: url.toString(),
    staging: 'copy',
    connect,
    async drop() {
      await Promise.all(pools.map((pool) => pool.end({ timeout: 5 })));
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export async function createPgliteDatabase(): Promise<TestDatabase> {
  const server = await startPgliteServer();
  const pools: Sql[] = [];
  const connect = () => {
    const sql = connectPostgres(server.url, { max: 1 });
    pools.push(sql);
    return sql;
  };
  const sql = connect();
  return {
    sql,
    url: server.url,
    staging: 'parameter',
    connect,
    async drop() {
      await Promise.all(pools.map((pool) => pool.end({ timeout: 5 })));
      await server.stop();
    },
  };
}

/**
 * Migrates and loads `data` through the writer, in two batches per table, then finish().
 * `pageSize` is the writer's (3: many pages even for a small catalogue; null: the writer's own,
 * for a catalogue of a thousand masters or more loaded in seconds rather than a minute).
 */
export async function loadCatalogue(db: TestDatabase, data: CatalogueData, pageSize: number | null = 3): Promise<void> {
  await migrate(db.sql);
  const writer = createPostgresWriter(db.sql, { staging: db.staging, ...(pageSize === null ? {} : { pageSize }) });
  const halves = <T>(rows: T[]) => [rows.slice(0, Math.ceil(rows.length / 2)), rows.slice(Math.ceil(rows.length / 2))];
  for (const batch of halves(data.artists)) await writer.writeArtists(batch);
  for (const batch of halves(data.labels)) await writer.writeLabels(batch);
  for (const batch of halves(data.releases)) await writer.writeReleases(batch);
  for (const batch of halves(data.masters)) await writer.writeMasters(batch);
  for (const batch of halves(data.festivals)) await writer.writeFestivals(batch);
  for (const batch of halves(data.bandcamp)) await writer.writeBandcamp(batch);
  await writer.finish();
}
