/**
 * Usage is billing data (docs/decisions.md §8). The Node host as operators run it, on
 * a real PostgreSQL database:
 * - with REDIS_URL, calls admitted while Redis is down sit in the fail-open buffer; SIGTERM
 *   must make them durable (to Redis if it is back, else straight to PostgreSQL);
 * - without REDIS_URL, the in-process limiter persists month counts (every minute through
 *   runJobs, and at shutdown) and a restarted instance is re-seeded from them.
 * After each kill / restart the month's count equals the calls admitted.
 */
import { monthOf } from '@catalogue/core';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { limiterKeys } from '@catalogue/upstash';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { freePort } from '../hosts/process-host.js';
import { createRedisProcess, type RedisProcess } from '../limits/redis-process.js';
import { spawnNodeHost } from '../support/node-host-process.js';
import { pollUntil } from '../support/poll-until.js';

const ADMIN_TOKEN = 'usage-admin-token-0123456789abcdef';
/** A counted route that needs no catalogue rows. */
const COUNTED = '/api/v1/dossier/manifest';

interface Host {
  base: string;
  output(): string;
  /** SIGTERM, and the exit code once the host has shut down. */
  stop(): Promise<number | null>;
}

async function startNodeHost(env: Record<string, string>): Promise<Host> {
  const port = await freePort();
  const host = await spawnNodeHost({ PORT: String(port), ADMIN_TOKEN, ...env });
  return { base: `http://127.0.0.1:${port}`, output: host.output, stop: host.stop };
}

async function issueKey(base: string, email: string): Promise<{ key: string; customerId: string }> {
  const response = await fetch(`${base}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { key: string; customer_id: string };
  return { key: body.key, customerId: body.customer_id };
}

/** `n` counted calls, `parallel` at a time; every one must be answered 200. */
async function calls(base: string, key: string, n: number, parallel = 10): Promise<void> {
  for (let done = 0; done < n; done += parallel) {
    const batch = Array.from({ length: Math.min(parallel, n - done) }, () => fetch(`${base}${COUNTED}`, { headers: { 'x-api-key': key } }));
    const statuses = await Promise.all(batch.map(async (pending) => (await pending).status));
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
}

/** The live month counter in Redis (the default prefix's layout), or null when there is none. */
async function liveCount(redisUrl: string, customerId: string): Promise<number | null> {
  const redis = new IORedis(redisUrl);
  try {
    const n = await redis.hget(limiterKeys('catalogue:limits').month(customerId, 'live', monthOf(Date.now())), 'n');
    return n === null ? null : Number(n);
  } finally {
    redis.disconnect();
  }
}

async function usageCalls(base: string, key: string): Promise<number> {
  const response = await fetch(`${base}/api/v1/usage`, { headers: { 'x-api-key': key } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { calls: number }).calls;
}

describe('usage survives kills and restarts (docs/decisions.md §8)', () => {
  let db: TestDatabase;
  const durable = async (customerId: string) =>
    (
      await db.sql<Array<{ calls: number }>>`SELECT count::int AS calls FROM usage_months WHERE customer_id = ${customerId} AND month = ${monthOf(Date.now())}`
    )[0]?.calls ?? 0;

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 2 });
  });
  afterAll(async () => {
    await db?.drop();
  });

  describe('with Redis', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await createRedisProcess();
      await redis.start();
    });
    afterAll(async () => {
      await redis?.kill();
    });

    it('SIGTERM with calls admitted during a Redis outage makes every one durable, and a restart sees them', async () => {
      const host = await startNodeHost({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      const { key, customerId } = await issueKey(host.base, 'outage@example.com');
      await calls(host.base, key, 20);
      await redis.kill();
      await calls(host.base, key, 300, 25);
      // The host's stdout is read apart from the answers' sockets: wait for the line, bounded.
      expect(await pollUntil(async () => host.output().includes('ratelimit.fail_open'), true, 5_000, 50)).toBe(true);
      expect(await host.stop()).toBe(0);
      expect(await durable(customerId)).toBe(320);

      // Redis comes back empty: the next instance re-seeds the month from PostgreSQL.
      await redis.start();
      const next = await startNodeHost({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      expect(await usageCalls(next.base, key)).toBe(320);
      await calls(next.base, key, 5);
      expect(await next.stop()).toBe(0);
      expect(await durable(customerId)).toBe(325);
    }, 180_000);

    it('SIGTERM after Redis came back replays the buffer into Redis and PostgreSQL, once', async () => {
      const host = await startNodeHost({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      const { key, customerId } = await issueKey(host.base, 'back@example.com');
      await calls(host.base, key, 10);
      await redis.kill();
      await calls(host.base, key, 100, 25);
      await redis.start();
      // The host's connection is back (it reconnects in the background) before it is stopped, so
      // its close finds Redis answering and must count the buffered calls into the new counter.
      expect(await pollUntil(async () => (await fetch(`${host.base}/readyz`)).status, 200, 10_000, 100)).toBe(200);
      expect(await host.stop()).toBe(0);
      expect(await durable(customerId)).toBe(110);
      // Redis restarted empty: the counter holds the 100 buffered calls and the 10 it lost, replayed at close.
      expect(await liveCount(redis.url, customerId)).toBe(110);
      const next = await startNodeHost({ DATABASE_URL: db.url, REDIS_URL: redis.url });
      expect(await usageCalls(next.base, key)).toBe(110);
      expect(await next.stop()).toBe(0);
      expect(await durable(customerId)).toBe(110);
    }, 180_000);
  });

  describe('without Redis (in-process limiter)', () => {
    it('SIGTERM persists the month, and a restarted instance starts from it instead of zero', async () => {
      const host = await startNodeHost({ DATABASE_URL: db.url });
      const { key, customerId } = await issueKey(host.base, 'alone@example.com');
      await calls(host.base, key, 25);
      expect(await host.stop()).toBe(0);
      expect(await durable(customerId)).toBe(25);

      const next = await startNodeHost({ DATABASE_URL: db.url });
      expect(await usageCalls(next.base, key)).toBe(25);
      await calls(next.base, key, 10);
      expect(await usageCalls(next.base, key)).toBe(35);
      expect(await next.stop()).toBe(0);
      expect(await durable(customerId)).toBe(35);
    }, 120_000);

    it('runJobs persists every minute, and instances sharing the database see each other’s calls after it', async () => {
      const env = { DATABASE_URL: db.url, ADMIN_TOKEN, LOG_LEVEL: 'error' };
      const one = await createServiceFromEnv(env, { migrate: true });
      const two = await createServiceFromEnv(env);
      try {
        const issued = await one.service.fetch(
          new Request('http://catalogue.test/api/v1/admin/keys', {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'pair@example.com' }),
          }),
        );
        const { key, customer_id: customerId } = (await issued.json()) as { key: string; customer_id: string };
        const call = (hosted: typeof one, path: string) => hosted.service.fetch(new Request(`http://catalogue.test${path}`, { headers: { 'x-api-key': key } }));
        for (let i = 0; i < 7; i++) expect((await call(one, COUNTED)).status).toBe(200);
        for (let i = 0; i < 5; i++) expect((await call(two, COUNTED)).status).toBe(200);
        await one.service.runJobs();
        await two.service.runJobs();
        expect(await durable(customerId)).toBe(12);
        // Instance one flushed before two; /usage on either reads durable usage as it is now.
        for (const hosted of [one, two]) expect(((await (await call(hosted, '/api/v1/usage')).json()) as { calls: number }).calls).toBe(12);
      } finally {
        await one.close();
        await two.close();
      }
      expect(await durable((await db.sql<Array<{ id: string }>>`SELECT id FROM customers WHERE email = 'pair@example.com'`)[0]?.id as string)).toBe(12);
    }, 60_000);
  });
});
