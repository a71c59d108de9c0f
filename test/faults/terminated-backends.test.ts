/**
 * docs/decisions.md §8: PostgreSQL terminating the service's connections mid-load (an operator's
 * pg_terminate_backend, a failover, a restart) is transient: 503 with Retry-After, never
 * 500, and the pool heals itself. The Node host in process on a real database, 16 clients.
 */
import type { LogRecord } from '@catalogue/core';
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { issueKeyOverHttp } from '../support/admin-keys.js';
import { fixtureData } from '../support/fixture-data.js';

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

describe('backends terminated under load', () => {
  it('answers 503 database_unavailable with Retry-After (never 500), and heals', async () => {
    const statuses = new Map<number, number>();
    const missingRetryAfter: number[] = [];
    let terminated = 0;
    const until = Date.now() + 4_000;
    const client = async (i: number) => {
      for (let n = i; Date.now() < until; n++) {
        const t0 = Date.now();
        const response = await fetch(`${running.url}${PATHS[n % PATHS.length]}`, { headers: { 'x-api-key': key } });
        const text = await response.text();
        if (Date.now() - t0 > 1000) console.info('SLOW', PATHS[n % PATHS.length], response.status, Date.now() - t0, text.slice(0, 200));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 503 && !response.headers.get('retry-after')) missingRetryAfter.push(n);
      }
    };
    const killer = async () => {
      while (Date.now() < until - 500) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const rows = await db.sql<Array<{ ok: boolean }>>`
          SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'catalogue' AND pid <> pg_backend_pid()`;
        terminated += rows.length;
      }
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
