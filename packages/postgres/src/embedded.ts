/**
 * The embedded default (no DATABASE_URL): PGlite persisted in `${dataDir}/pg`, served on a
 * loopback port, migrations applied. Node-only; exported as `@catalogue/postgres/embedded`.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { connectPostgres } from './connect.js';
import { type LockOptions, lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { type PgliteServer, startPgliteServer } from './pglite-server.js';

export interface EmbeddedPostgres {
  url: string;
  /** Says in the data dir's lock that this process is shutting down: a start meanwhile waits for it instead of refusing. */
  stopping(): void;
  stop(): Promise<void>;
}

/** Options a host passes to connectPostgres / createPostgresWriter for the embedded server. */
export const EMBEDDED_CONNECT_OPTIONS = { max: 1 } as const;
export const EMBEDDED_WRITER_OPTIONS = { staging: 'parameter' } as const;

/**
 * Opens the data dir's PGlite, migrated. Only one process may hold a data dir (the server or
 * `catalogue import`): a second gets DataDirBusyError naming the holder's pid.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port?: number; lock?: LockOptions }): Promise<EmbeddedPostgres> {
  const dataDir = join(options.dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  const lock = await lockDataDir(options.dataDir, options.lock);
  const unlock = () => lock.release();
  let server: PgliteServer;
  try {
    server = await startPgliteServer({ dataDir, ...(options.port === undefined ? {} : { port: options.port }) });
  } catch (error) {
    unlock();
    throw error;
  }
  const sql = connectPostgres(server.url, EMBEDDED_CONNECT_OPTIONS);
  try {
    await migrate(sql);
  } catch (error) {
    await sql.end();
    await server.stop();
    unlock();
    throw error;
  }
  await sql.end();
  return {
    url: server.url,
    stopping: () => lock.markStopping(),
    async stop() {
      try {
        await server.stop();
      } finally {
        unlock();
      }
    },
  };
}

export { DataDirBusyError, type LockOptions, STOPPING_WAIT_MS } from './data-dir-lock.js';

export { type PgliteServer, startPgliteServer } from './pglite-server.js';
