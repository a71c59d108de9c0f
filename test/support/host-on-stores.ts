/**
 * The Node host as operators run it, on stores of a test's own: a PostgreSQL database created
 * for it and REDIS_URL on a redis-server on a spare port (test/limits/redis-process.ts), so a
 * test may reconfigure or kill that Redis without touching anyone else's.
 */
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { freePort } from '../hosts/process-host.js';
import { createRedisProcess, type RedisProcess } from '../limits/redis-process.js';
import { type NodeHostProcess, spawnNodeHost } from './node-host-process.js';

export interface HostOnStores {
  /** The host's origin, `http://127.0.0.1:<port>`. */
  base: string;
  db: TestDatabase;
  redis: RedisProcess;
  host: NodeHostProcess;
  /** Stops the host, then its Redis, then drops its database. */
  stop(): Promise<void>;
}

/** `env` may be made from the host's origin (a BASE_URL naming the port it gets). */
export async function startHostOnStores(env: Record<string, string> | ((base: string) => Record<string, string>) = {}): Promise<HostOnStores> {
  const db = await createPostgresDatabase({ max: 2 });
  const redis = await createRedisProcess();
  await redis.start();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const host = await spawnNodeHost({ PORT: String(port), DATABASE_URL: db.url, REDIS_URL: redis.url, ...(typeof env === 'function' ? env(base) : env) });
  return {
    base,
    db,
    redis,
    host,
    async stop() {
      await host.stop();
      await redis.kill();
      await db.drop();
    },
  };
}
