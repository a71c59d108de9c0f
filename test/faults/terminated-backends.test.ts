/**
 * docs/decisions.md §8: PostgreSQL terminating the service's connections mid-load (an operator's
 * pg_terminate_backend, a failover, a restart) is transient: 503 with Retry-After, never
 * 500, and the pool heals itself. The Node host in process on a real database: first one
 * call whose query is terminated while it waits on a lock (so a 503 always happens), then 16
 * clients while backends are terminated every 300 ms.
 */
import type { LogRecord } from '@catalogue/core';
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { issueKeyOverHttp } from '../support/admin-keys.js';
import { fixtureData } from '../support/fixture-data.js';
import { lockTable } from '../support/table-lock.js';

const ADMIN_TOKEN = 'terminate-admin-token-0123456789ab';
const PATHS = ['/api/v1/masters/113', '/api/v1/search?q=moments', '/api/v1/usage', '/api/v1/artist/discogs:7', '/api/v1/facets?facets=genre'];

let db: TestDatabase;
let hosted: HostedService;
let running: RunningServer;
let key: string;
const logged: LogRecord[] = [];

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 2 });
  await loadCatalogue(db, fixtureData());
  hosted = await createServiceFromEnv({ DATABASE_URL: db.url, ADMIN_TOKEN, LOG_LEVEL: 'error' }, { logger: { log: (record) => logged.push(record) } });
  running = await listen(createNodeServer(hosted.service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
  key = await issueKeyOverHttp(running.url, ADMIN_TOKEN, { email: 'load@example.com', limits: { burst_per_minute: 1_000_000, concurrency: 100 } });
}, 60_000);

afterAll(async () => {
  await running?.close();
  await hosted?.close();
  await db?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Terminates the service's backends that wait on a lock; resolves with their number once there is one. */
async function terminateWaitingBackends(): Promise<number> {
  for (let attempt = 0; attempt < 1_000; attempt++) {
    const rows = await db.sql<Array<{ ok: boolean }>>`
      SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = 'catalogue' AND wait_event_type = 'Lock'`;
    if (rows.length > 0) return rows.length;
    await sleep(10);
  }
  throw new Error('no backend of the service ever waited on the lock');
}

describe('backends terminated under load', () => {
  it('answers 503 database_unavailable with Retry-After (never 500), and heals', async () => {
    // One call whose key lookup waits on a locked api_keys when its backend is terminated: a
    // fresh key, so no cache answers it.
    const fresh = await issueKeyOverHttp(running.url, ADMIN_TOKEN, { email: 'fresh@example.com' });
    const lock = await lockTable(db.url, 'api_keys');
    const pending = fetch(`${running.url}/api/v1/usage`, { headers: { 'x-api-key': fresh } });
    expect(await terminateWaitingBackends()).toBeGreaterThan(0);
    const lost = await pending;
    await lock.release();
    expect(lost.status).toBe(503);
    expect(lost.headers.get('retry-after')).toBe('5');
    expect(await lost.json()).toMatchObject({ error: 'database_unavailable' });

    // Then under load: 16 clients while backends are terminated every 300 ms, 10 times.
    const statuses = new Map<number, number>();
    const missingRetryAfter: number[] = [];
    let terminated = 0;
    let stop = false;
    const client = async (i: number) => {
      for (let n = i; !stop; n++) {
        const response = await fetch(`${running.url}${PATHS[n % PATHS.length]}`, { headers: { 'x-api-key': key } });
        await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 503 && !response.headers.get('retry-after')) missingRetryAfter.push(n);
      }
    };
    const killer = async () => {
      for (let round = 0; round < 10; round++) {
        await sleep(300);
        const rows = await db.sql<Array<{ ok: boolean }>>`
          SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'catalogue' AND pid <> pg_backend_pid()`;
        terminated += rows.length;
      }
      await sleep(500);
      stop = true;
    };
    await Promise.all([...Array.from({ length: 16 }, (_, i) => client(i)), killer()]);
    console.info(`terminated ${terminated} backends; answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);

    expect(terminated).toBeGreaterThan(0);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect([...statuses.keys()].every((status) => status === 200 || status === 503)).toBe(true);
    expect(missingRetryAfter).toEqual([]);
    expect(logged.filter((record) => record.kind === 'request.internal_error')).toEqual([]);

    // Healed: every route answers again, with no restart.
    for (const path of PATHS) {
      const response = await fetch(`${running.url}${path}`, { headers: { 'x-api-key': key } });
      expect(response.status, path).toBe(200);
    }
  }, 60_000);
});
