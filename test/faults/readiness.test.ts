/**
 * GET /readyz on real PostgreSQL and Redis (docs/decisions.md §8, "Health and readiness"):
 * ready with the migrations applied and Redis answering; 503 not_ready naming the database when
 * its pool is closed or a migration is missing, and naming the limit store when Redis is away
 * (a port of this suite's range where nothing listens). No message carries a URL.
 */
import { createService, type Probe } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { migrate, postgresProbe } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';

/** i16a's port range (56160-56169): nothing listens on it. */
const DEAD_REDIS = 'redis://127.0.0.1:56161';
const quiet = { log() {} };

function serviceWith(probes: Probe[]) {
  return createService(
    { catalogue: createMemoryCatalogue(fixtureData()), accounts: createMemoryAccounts(), limiter: createMemoryLimiter(), logger: quiet, probes },
    { baseUrl: 'http://readiness.test' },
  );
}

async function readyz(fetch: (r: Request) => Promise<Response>) {
  const res = await fetch(new Request('http://readiness.test/readyz'));
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') };
}

describe('readiness on real PostgreSQL and Redis', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createPostgresDatabase();
  }, 30_000);
  afterAll(async () => {
    await db?.drop();
  });

  it('an unmigrated database is not ready; once migrated it is; a migration this build knows but the database lacks is named', async () => {
    const before = await readyz((r) => serviceWith([postgresProbe(db.sql)]).fetch(r));
    expect(before).toMatchObject({
      status: 503,
      body: { error: 'not_ready', details: [{ path: 'database', message: expect.stringMatching(/migrations not applied/) }] },
    });
    await migrate(db.sql);
    expect(await readyz((r) => serviceWith([postgresProbe(db.sql)]).fetch(r))).toMatchObject({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok' } },
    });
    const newer = postgresProbe(db.sql, [{ id: '9999_from_the_future', sql: 'SELECT 1' }]);
    expect(await readyz((r) => serviceWith([newer]).fetch(r))).toMatchObject({
      status: 503,
      body: { details: [{ path: 'database', message: 'migrations pending: 9999_from_the_future' }] },
    });
  }, 60_000);

  it('a host on PostgreSQL + Redis is ready; with its pool closed it answers 503 naming the database', async () => {
    const hosted = await createServiceFromEnv(
      { DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'error', SECRET_KEY: '3c'.repeat(32) },
      { migrate: true, redisPrefix: `readiness-${process.pid}-${Date.now()}` },
    );
    try {
      // Until its Redis connection is up the instance is not ready (it would serve failing open).
      for (let i = 0; i < 50 && (await readyz((r) => hosted.service.fetch(r))).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await readyz((r) => hosted.service.fetch(r))).toEqual({
        status: 200,
        body: { status: 'ready', checks: { database: 'ok', limits: 'ok' } },
        retryAfter: null,
      });
      const pool = db.connect({ max: 1 });
      const service = serviceWith([postgresProbe(pool)]);
      expect((await readyz((r) => service.fetch(r))).status).toBe(200);
      await pool.end({ timeout: 1 });
      const down = await readyz((r) => service.fetch(r));
      expect(down).toMatchObject({ status: 503, retryAfter: '5', body: { error: 'not_ready', details: [{ path: 'database', message: expect.any(String) }] } });
      expect(JSON.stringify(down.body)).not.toContain('127.0.0.1');
    } finally {
      await hosted.close();
    }
  }, 60_000);

  it('Redis away: 503 naming the limit store, and /healthz still 200', async () => {
    const hosted = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', REDIS_URL: DEAD_REDIS, LOG_LEVEL: 'error' }, { catalogueData: undefined });
    try {
      const down = await readyz((r) => hosted.service.fetch(r));
      expect(down).toMatchObject({
        status: 503,
        body: { error: 'not_ready', details: [{ path: 'limits', message: expect.stringMatching(/^limit store unreachable/) }] },
      });
      expect(JSON.stringify(down.body)).not.toContain('56161');
      expect((await hosted.service.fetch(new Request('http://readiness.test/healthz'))).status).toBe(200);
    } finally {
      await hosted.close();
    }
  }, 60_000);
});
