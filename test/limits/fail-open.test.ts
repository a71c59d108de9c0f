/**
 * Fail-open and nothing-lost against a redis-server of the test's own, killed and restarted
 * mid-run (no persistence, so it comes back empty), over both transports.
 */
import type { LimitDecision } from '@catalogue/core';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAccounts, type MemoryAccounts } from '../../packages/core/src/memory/accounts.js';
import { createRedisLimiter, type RedisLimiter } from '../../packages/upstash/src/index.js';
import { policy, request } from './fixtures.js';
import { createRedisProcess, type RedisProcess } from './redis-process.js';
import { openTransport, TRANSPORTS, type Transport } from './transports.js';

const NOW = Date.UTC(2026, 2, 10, 8, 0, 0);
const MONTH = '2026-03';
const TIMEOUT_MS = 50;

/** Waits until the client reaches Redis again (ioredis reconnects in the background). */
async function untilReachable(transport: Transport): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if ((await transport.redis.ping()) === 'PONG') return;
    } catch {
      // still reconnecting
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis did not come back');
}

describe.each(TRANSPORTS)('fail-open over %s', (transportName) => {
  let server: RedisProcess;
  let transports: Transport[] = [];
  let limiters: RedisLimiter[] = [];
  let accounts: MemoryAccounts;

  beforeAll(async () => {
    server = await createRedisProcess(['--enable-debug-command', 'yes']);
    await server.start();
    transports = [await openTransport(transportName, server.url), await openTransport(transportName, server.url)];
    accounts = createMemoryAccounts();
    limiters = transports.map((t) => createRedisLimiter({ redis: t.commands, accounts, prefix: 'fo', timeoutMs: TIMEOUT_MS }));
    // Warm up (connections, script cache) so the 50 ms budget measures the store, not a cold start.
    for (const l of limiters) {
      for (let attempt = 0; attempt < 20; attempt++) {
        const warm = await l.admit(request(policy(), NOW, { customerId: 'cus_warmup' })).catch(() => null);
        if (warm) break;
      }
    }
  });
  afterAll(async () => {
    for (const t of transports) await t.close();
    await server.kill();
  });

  /** One call as core sees it: a decision, or a throw that core turns into "let through". */
  async function call(i: number, customerId: string, p = policy()): Promise<{ decision: LimitDecision | null }> {
    try {
      const decision = await limiters[i % 2]!.admit(request(p, NOW + i, { customerId }));
      await decision.release();
      return { decision };
    } catch {
      return { decision: null };
    }
  }

  it('throws instead of refusing while Redis is down, then counts every admitted call exactly once', async () => {
    const customerId = 'cus_outage';
    let admitted = 0;
    const countAdmitted = (r: { decision: LimitDecision | null }) => {
      if (!r.decision || r.decision.allowed) admitted++;
    };
    for (let i = 0; i < 30; i++) countAdmitted(await call(i, customerId));
    for (const l of limiters) await l.runJobs(NOW);
    expect(await accounts.getUsage(customerId, 'live', MONTH)).toBe(admitted);
    // Counted in Redis, not yet flushed: these are lost with Redis and must be replayed.
    for (let i = 30; i < 40; i++) countAdmitted(await call(i, customerId));

    await server.kill();
    const during = [];
    for (let i = 40; i < 60; i++) during.push(await call(i, customerId));
    admitted += during.length;
    expect(during.every((r) => r.decision === null)).toBe(true); // zero 429: every call fails open
    // No queueing behind a dead connection: each of these calls settled while Redis was still
    // down (it starts again only below), so none waited for the store to come back.

    await server.start();
    for (const t of transports) await untilReachable(t);
    for (const l of limiters) await l.runJobs(NOW + 60_000);
    expect(await limiters[0]!.monthCount(customerId, 'live', MONTH)).toBe(admitted);
    expect(await accounts.getUsage(customerId, 'live', MONTH)).toBe(admitted);

    // Limits apply again: the quota sits 5 calls above the count.
    const p = policy({ quotaPerMonth: admitted + 5 });
    const after = [];
    for (let i = 60; i < 70; i++) after.push((await call(i, customerId, p)).decision);
    expect(after.map((d) => d?.reason)).toEqual([null, null, null, null, null, 'quota', 'quota', 'quota', 'quota', 'quota']);
    for (const l of limiters) await l.runJobs(NOW + 120_000);
    expect(await limiters[1]!.monthCount(customerId, 'live', MONTH)).toBe(admitted + 5);
    expect(await accounts.getUsage(customerId, 'live', MONTH)).toBe(admitted + 5);
  });

  it('bounds the outage buffer: past maxBufferedCalls calls share an overflow entry, and each still counts once', async () => {
    const customerId = 'cus_long_outage';
    const records: Array<{ kind: string }> = [];
    const bounded = createRedisLimiter({
      redis: transports[0]!.commands,
      accounts,
      prefix: 'fo-cap',
      timeoutMs: TIMEOUT_MS,
      maxBufferedCalls: 5,
      logger: { log: (r) => records.push(r) },
    });
    let warm: LimitDecision | null = null;
    for (let attempt = 0; attempt < 20 && !warm; attempt++) warm = await bounded.admit(request(policy(), NOW, { customerId })).catch(() => null);
    expect(warm?.allowed).toBe(true);

    await server.kill();
    for (let i = 1; i <= 40; i++) await expect(bounded.admit(request(policy(), NOW + i, { customerId }))).rejects.toThrow();
    expect(bounded.bufferedEntries()).toBe(6); // 5 calls of their own + one overflow entry
    expect(bounded.pendingCalls(customerId, 'live', MONTH)).toBe(41);
    expect(records.filter((r) => r.kind === 'ratelimit.buffer_full')).toHaveLength(1);

    await server.start();
    await untilReachable(transports[0]!);
    await bounded.runJobs(NOW + 60_000);
    expect(bounded.bufferedEntries()).toBe(0);
    expect(await bounded.monthCount(customerId, 'live', MONTH)).toBe(41);
    expect(await accounts.getUsage(customerId, 'live', MONTH)).toBe(41);
  });

  it('does not replay a call whose reply timed out but that Redis applied', async () => {
    const customerId = 'cus_slow';
    expect((await call(0, customerId)).decision?.monthCount).toBe(1);
    const blocker = new IORedis(server.url);
    try {
      const sleeping = blocker.call('DEBUG', 'SLEEP', '0.3');
      await new Promise((r) => setTimeout(r, 20));
      const slow = await call(1, customerId);
      expect(slow.decision).toBeNull(); // timed out → fail open
      await sleeping;
    } finally {
      blocker.disconnect();
    }
    // The script ran once Redis woke up; the replay must see its marker and add nothing.
    await untilReachable(transports[1]!);
    for (const l of limiters) await l.runJobs(NOW + 60_000);
    expect(await limiters[0]!.monthCount(customerId, 'live', MONTH)).toBe(2);
    expect(await accounts.getUsage(customerId, 'live', MONTH)).toBe(2);
  });
});
