/**
 * The whole service on the Redis limiter: two instances (separate clients) share a
 * redis-server of the test's own, which is killed and restarted mid-run. While it is down:
 * zero 5xx, zero 429, `ratelimit.fail_open` logged per request, the alarm raised once per
 * instance; afterwards limits apply again and usage equals the calls served.
 */
import { createService, emptyCatalogueData, issueCustomerKey, type LogRecord } from '@catalogue/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAccounts } from '../../packages/core/src/memory/accounts.js';
import { createMemoryCatalogue } from '../../packages/core/src/memory/catalogue.js';
import { createManualClock } from '../../packages/core/src/memory/manual-clock.js';
import { createRedisLimiter } from '../../packages/upstash/src/index.js';
import { createRedisProcess, type RedisProcess } from './redis-process.js';
import { openTransport, TRANSPORTS, type Transport } from './transports.js';

const BASE = 'http://catalogue.test';

describe.each(TRANSPORTS)('service on the Redis limiter over %s', (transportName) => {
  let server: RedisProcess;
  let transports: Transport[] = [];

  beforeAll(async () => {
    server = await createRedisProcess();
    await server.start();
    transports = [await openTransport(transportName, server.url), await openTransport(transportName, server.url)];
  });
  afterAll(async () => {
    for (const t of transports) await t.close();
    await server.kill();
  });

  it('fails open while Redis is down and loses no usage', async () => {
    const clock = createManualClock('2026-05-20T10:00:00Z');
    const accounts = createMemoryAccounts();
    const catalogue = createMemoryCatalogue(emptyCatalogueData());
    const instances = transports.map((t) => {
      const logs: LogRecord[] = [];
      const alarms: string[] = [];
      // A generous timeout: a dead store fails on the connection error at once, and a loaded
      // machine must not turn a slow-but-alive call into a fail-open here (fail-open.test.ts
      // covers the 50 ms timer).
      const limiter = createRedisLimiter({ redis: t.commands, accounts, clock, prefix: 'svc', timeoutMs: 1_000 });
      const service = createService(
        { catalogue, accounts, limiter, clock, logger: { log: (r) => logs.push(r) }, alarm: { raise: (kind) => alarms.push(kind) } },
        { baseUrl: BASE, adminToken: 'admin' },
      );
      return { service, logs, alarms };
    });
    const issued = await issueCustomerKey(accounts, { email: 'a@example.com', tier: 'self_serve_49', environment: 'live' }, new Date(clock.now()));

    /** One search call; waits for the release handed to waitUntil, as a host would. */
    async function search(i: number): Promise<Response> {
      clock.advance(1);
      const background: Promise<unknown>[] = [];
      const response = await instances[i % 2]!.service.fetch(new Request(`${BASE}/api/v1/search?q=dub`, { headers: { 'x-api-key': issued.plaintext } }), {
        waitUntil: (p) => background.push(p),
      });
      await Promise.all(background);
      return response;
    }
    async function usage(): Promise<number> {
      const response = await instances[0]!.service.fetch(new Request(`${BASE}/api/v1/usage`, { headers: { 'x-api-key': issued.plaintext } }));
      expect(response.status).toBe(200);
      return ((await response.json()) as { calls: number }).calls;
    }

    let served = 0;
    for (let i = 0; i < 10; i++) {
      const response = await search(i);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('60');
      served++;
    }

    await server.kill();
    const statuses: number[] = [];
    for (let i = 10; i < 30; i++) {
      const response = await search(i);
      statuses.push(response.status);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      served++;
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    for (const { logs, alarms } of instances) {
      expect(logs.filter((r) => r.kind === 'ratelimit.fail_open')).toHaveLength(10);
      expect(alarms.filter((k) => k === 'ratelimit.fail_open')).toHaveLength(1);
    }

    await server.start();
    for (const t of transports) {
      for (let attempt = 0; attempt < 200 && (await t.redis.ping().catch(() => null)) !== 'PONG'; attempt++) await new Promise((r) => setTimeout(r, 50));
    }
    for (const { service } of instances) await service.runJobs();
    expect(await usage()).toBe(served);

    // Limits apply again: the burst window restarted empty with Redis, so 60 pass, then 429.
    const after: number[] = [];
    for (let i = 30; i < 100; i++) after.push((await search(i)).status);
    expect(after.filter((s) => s === 200)).toHaveLength(60);
    expect(after.filter((s) => s === 429)).toHaveLength(10);
    expect(after.slice(60).every((s) => s === 429)).toBe(true);
    served += 60;
    for (const { service } of instances) await service.runJobs();
    expect(await usage()).toBe(served);
    expect(await accounts.getUsage(issued.customer.id, 'live', '2026-05')).toBe(served);
  });
});
