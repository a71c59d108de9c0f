/**
 * PGlite behind @electric-sql/pglite-socket on a loopback port, so the same postgres.js code
 * talks to it. PGlite serves one connection at a time: connect with `max: 1`.
 */
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgliteServer {
  /** postgres:// URL of the loopback server. */
  url: string;
  stop(): Promise<void>;
}

/** `dataDir` persists the database; without it the database lives in memory (tests). */
export async function startPgliteServer(options: { dataDir?: string; port?: number } = {}): Promise<PgliteServer> {
  const db = await PGlite.create({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), extensions: { pg_trgm, unaccent } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: options.port ?? 0 });
  await server.start();
  return {
    url: `postgres://postgres@${server.getServerConn()}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
