/**
 * The limiter behind Redis Sentinel (issue 27): REDIS_SENTINELS + REDIS_SENTINEL_NAME, the Node
 * hosts' wiring (createServiceFromEnv) on PostgreSQL. Limits are exact before and after the
 * primary is SIGKILLed and the sentinels promote its replica; during the switch the service
 * fails open (docs/decisions.md §8: served without limit headers, `ratelimit.fail_open`) and
 * never answers 5xx; once it is over, durable usage holds every call served exactly once.
 */
import { type Logger, type LogRecord, monthOf } from '@catalogue/core';
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { uniquePrefix } from './fixtures.js';
import { createRedisSentinel, type RedisSentinel } from './redis-sentinel-process.js';

const ADMIN_TOKEN = 'sentinel-admin-token-0123456789abcdef';
const COUNTED = 'http://sentinel.test/api/v1/dossier/manifest';

describe('the limiter behind Redis Sentinel, through a failover (issue 27)', () => {
  let sentinel: RedisSentinel;
  let db: TestDatabase;

  beforeAll(async () => {
    [sentinel, db] = await Promise.all([createRedisSentinel(), createPostgresDatabase({ max: 2 })]);
  }, 40_000);
  afterAll(async () => {
    await sentinel?.stop();
    await db?.drop();
  });

  it('limits exactly before and after the primary is killed, fails open only during the switch, never 5xx, and loses no usage', async () => {
    const failOpens: number[] = [];
    const logger: Logger = {
      log: (record: LogRecord) => {
        if (record.kind === 'ratelimit.fail_open') failOpens.push(failOpens.length);
      },
    };
    const hosted: HostedService = await createServiceFromEnv(
      {
        DATABASE_URL: db.url,
        REDIS_SENTINELS: sentinel.sentinelList,
        REDIS_SENTINEL_NAME: sentinel.name,
        LOG_LEVEL: 'error',
        SECRET_KEY: '3c'.repeat(32),
        ADMIN_TOKEN,
      },
      { logger, migrate: true, redisPrefix: uniquePrefix('sentinel') },
    );
    let closed = false;
    try {
      expect(hosted.limiter).toBe('redis (tcp, sentinel)');
      expect((await hosted.service.fetch(new Request('http://sentinel.test/readyz'))).status).toBe(200);
      const issue = async (email: string, burst: number) => {
        const answer = await hosted.service.fetch(
          new Request('http://sentinel.test/api/v1/admin/keys', {
            method: 'POST',
            headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ email, limits: { burst_per_minute: burst } }),
          }),
        );
        expect(answer.status).toBe(201);
        return (await answer.json()) as { key: string; customer_id: string };
      };
      const served = new Map<string, number>();
      /** One counted call: its status and whether the limiter answered it (limit headers). */
      const call = async (issued: { key: string; customer_id: string }) => {
        const answer = await hosted.service.fetch(new Request(COUNTED, { headers: { 'x-api-key': issued.key } }));
        await answer.arrayBuffer();
        if (answer.status === 200) served.set(issued.customer_id, (served.get(issued.customer_id) ?? 0) + 1);
        return { status: answer.status, limited: answer.headers.get('x-ratelimit-limit') !== null };
      };
      const statuses = async (issued: { key: string; customer_id: string }, n: number) => {
        const seen: number[] = [];
        for (let i = 0; i < n; i++) seen.push((await call(issued)).status);
        return seen;
      };
      const count = (seen: number[], status: number) => seen.filter((s) => s === status).length;

      const before = await issue('before@example.com', 20);
      const during = await issue('during@example.com', 1_000_000);
      const after = await issue('after@example.com', 20);

      // Before: burst 20 → 20 of 30 served, 10 refused.
      const beforeRun = await statuses(before, 30);
      expect([count(beforeRun, 200), count(beforeRun, 429)]).toEqual([20, 10]);
      expect(failOpens).toEqual([]);

      // The primary dies (SIGKILL by PID); calls go on until the limiter answers again on the promoted replica.
      const oldPort = await sentinel.killPrimary();
      const promoted = sentinel.waitForPrimaryOtherThan(oldPort);
      let promotedPort: number | null = null;
      void promoted.then((port) => {
        promotedPort = port;
      });
      const duringStatuses: number[] = [];
      // The switch is over once the failover has ended and the limiter has then answered 10
      // calls in a row: the client reconnects once more on +switch-master, which can follow
      // its first answer from the promoted replica (a second, short fail-open window).
      let answeredInARow = 0;
      // At most 1,500 calls 20 ms apart (30 s and more): the bound of a wait, counted.
      for (let attempt = 0; answeredInARow < 10 && attempt < 1_500; attempt++) {
        const result = await call(during);
        duringStatuses.push(result.status);
        answeredInARow = promotedPort !== null && result.limited ? answeredInARow + 1 : 0;
        await new Promise((r) => setTimeout(r, 20));
      }
      const answeredAgain = answeredInARow === 10;
      const newPort = await promoted;
      expect(newPort).not.toBe(oldPort);
      expect(answeredAgain).toBe(true);
      expect(duringStatuses.filter((s) => s >= 500)).toEqual([]);
      expect(count(duringStatuses, 200)).toBe(duringStatuses.length);
      console.info(`sentinel failover: ${duringStatuses.length} calls during the switch, ${failOpens.length} failed open; primary ${oldPort} → ${newPort}`);

      const failOpensDuringSwitch = failOpens.length;

      // After: a fresh customer is limited exactly on the promoted primary.
      const afterCalls: Array<{ status: number; limited: boolean; at: number }> = [];
      for (let i = 0; i < 30; i++) afterCalls.push({ ...(await call(after)), at: Date.now() });
      const afterRun = afterCalls.map((c) => c.status);
      if (count(afterRun, 429) !== 10)
        console.info(
          `sentinel failover: the fresh customer's calls after the switch (not 20 + 10): ${JSON.stringify(afterCalls)} failOpens ${failOpens.length} vs ${failOpensDuringSwitch} promoted ${promotedPort}`,
        );
      expect([count(afterRun, 200), count(afterRun, 429)]).toEqual([20, 10]);
      // The first customer's burst log went to the replica before the kill (say what is seen).
      const beforeAgain = await statuses(before, 5);
      console.info(`sentinel failover: the first customer's 5 further calls after the switch answered ${beforeAgain.join(',')}`);
      expect(count(beforeAgain, 500)).toBe(0);
      // Nothing failed open once the limiter answered on the promoted primary.
      expect(failOpens.length).toBe(failOpensDuringSwitch);

      // Shutdown flushes: durable usage holds each call served once, the failed-open ones included.
      const month = monthOf(Date.now());
      await hosted.close();
      closed = true;
      const durable = async (customerId: string) =>
        (await db.sql<Array<{ calls: number }>>`SELECT count::int AS calls FROM usage_months WHERE customer_id = ${customerId} AND month = ${month}`)[0]
          ?.calls ?? 0;
      for (const issued of [before, during, after]) expect(await durable(issued.customer_id)).toBe(served.get(issued.customer_id) ?? 0);
    } finally {
      if (!closed) await hosted.close();
    }
  }, 60_000);
});

describe('the limiter behind Redis Sentinel with passwords (issue 27)', () => {
  let sentinel: RedisSentinel;

  beforeAll(async () => {
    sentinel = await createRedisSentinel({ password: 'data-pass-0123', sentinelPassword: 'sentinel-pass-4567' });
  }, 40_000);
  afterAll(async () => {
    await sentinel?.stop();
  });

  const start = (password: string, logger?: Logger) =>
    createServiceFromEnv(
      {
        CATALOGUE_STORAGE: 'memory',
        REDIS_SENTINELS: sentinel.sentinelList,
        REDIS_SENTINEL_NAME: sentinel.name,
        REDIS_SENTINEL_PASSWORD: 'sentinel-pass-4567',
        REDIS_PASSWORD: password,
        LOG_LEVEL: 'error',
        ADMIN_TOKEN,
      },
      { ...(logger ? { logger } : {}), redisPrefix: uniquePrefix('sentinel-auth') },
    );

  it('REDIS_SENTINEL_PASSWORD authenticates to the sentinels and REDIS_PASSWORD to the primary: limits are exact; a wrong password is not ready', async () => {
    const kinds: string[] = [];
    const hosted = await start('data-pass-0123', { log: (record) => void kinds.push(String(record.kind)) });
    try {
      expect((await hosted.service.fetch(new Request('http://sentinel.test/readyz'))).status).toBe(200);
      const issued = await hosted.service.fetch(
        new Request('http://sentinel.test/api/v1/admin/keys', {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'auth@example.com', limits: { burst_per_minute: 5 } }),
        }),
      );
      const { key } = (await issued.json()) as { key: string };
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await hosted.service.fetch(new Request(COUNTED, { headers: { 'x-api-key': key } }))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(kinds.filter((kind) => kind.startsWith('ratelimit.'))).toEqual([]);
    } finally {
      await hosted.close();
    }
    const refused = await start('not-the-password');
    try {
      const ready = await refused.service.fetch(new Request('http://sentinel.test/readyz'));
      expect(ready.status).toBe(503);
      expect(JSON.stringify(await ready.json())).toContain('limit store unreachable');
    } finally {
      await refused.close();
    }
  }, 40_000);
});
