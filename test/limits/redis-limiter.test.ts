/**
 * The Redis Limiter against the Redis on 6379, over both transports, with two instances (each
 * with its own client) sharing it. Decisions are compared call by call with the memory
 * Limiter, which defines the semantics.
 */
import type { LimitDecision } from '@catalogue/core';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAccounts, type MemoryAccounts } from '../../packages/core/src/memory/accounts.js';
import { createMemoryLimiter } from '../../packages/core/src/memory/limiter.js';
import { createRedisLimiter, type RedisLimiter } from '../../packages/upstash/src/index.js';
import { deleteKeys, policy, request, runParallel, SHARED_REDIS_URL, uniquePrefix } from './fixtures.js';
import { openTransport, TRANSPORTS, type Transport } from './transports.js';

const JAN_15 = Date.UTC(2026, 0, 15, 12, 0, 0);
const shape = (d: LimitDecision) => ({
  allowed: d.allowed,
  reason: d.reason,
  limit: d.limit,
  remaining: d.remaining,
  reset: d.reset,
  retryAfterSeconds: d.retryAfterSeconds,
  monthCount: d.monthCount,
});

describe.each(TRANSPORTS)('Redis limiter over %s', (transportName) => {
  let transports: Transport[] = [];
  let prefixes: string[] = [];
  let accounts: MemoryAccounts;

  /** Two limiter instances with separate clients and the same prefix. */
  function pair(): [RedisLimiter, RedisLimiter] {
    const prefix = uniquePrefix(transportName);
    prefixes.push(prefix);
    const make = (t: Transport) => createRedisLimiter({ redis: t.commands, accounts, prefix, timeoutMs: 5_000 });
    return [make(transports[0]!), make(transports[1]!)];
  }

  beforeAll(async () => {
    transports = [await openTransport(transportName, SHARED_REDIS_URL), await openTransport(transportName, SHARED_REDIS_URL)];
    accounts = createMemoryAccounts();
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(SHARED_REDIS_URL, prefix);
    prefixes = [];
    for (const t of transports) await t.close();
  });

  it('keeps a call’s "counted" marker as one bit: 2,000 calls of two instances leave two marker keys, not 2,000', async () => {
    const [a, b] = pair();
    const prefix = prefixes[prefixes.length - 1] as string;
    const p = policy({ burstPerMinute: 100_000, concurrency: 100 });
    await runParallel(2_000, 20, async (i) => {
      const decision = await (i % 2 ? a : b).admit(request(p, JAN_15 + i));
      await decision.release();
    });
    const redis = new IORedis(SHARED_REDIS_URL);
    try {
      const markers = await redis.keys(`${prefix}:*:call*`);
      expect(markers).toHaveLength(2);
      for (const key of markers) expect(await redis.pttl(key)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });

  it('never exceeds the concurrency cap across two instances', async () => {
    const [a, b] = pair();
    const p = policy({ concurrency: 3 });
    let inFlight = 0;
    let maxInFlight = 0;
    const reasons: Array<string | null> = [];
    await runParallel(120, 12, async (i) => {
      const decision = await (i % 2 ? a : b).admit(request(p, JAN_15));
      reasons.push(decision.reason);
      if (!decision.allowed) return;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 1 + (i % 4)));
      inFlight--;
      await decision.release();
    });
    expect(maxInFlight).toBeLessThanOrEqual(3);
    expect(reasons.filter((r) => r === null).length).toBeGreaterThan(0);
    expect(reasons.filter((r) => r === 'concurrency').length).toBeGreaterThan(0);
    expect(reasons.every((r) => r === null || r === 'concurrency')).toBe(true);
  });

  it('admits exactly the burst count per sliding minute, like the memory limiter, at the window edges', async () => {
    const [a, b] = pair();
    const memory = createMemoryLimiter();
    const p = policy({ burstPerMinute: 10 });
    const windowStart = Math.floor(JAN_15 / 60_000) * 60_000;
    // Edges of the sliding minute: a call leaves the window exactly 60 s after it was made.
    const times = [
      ...Array.from({ length: 12 }, () => windowStart),
      ...Array.from({ length: 3 }, () => windowStart + 59_999),
      ...Array.from({ length: 4 }, () => windowStart + 60_000),
      ...Array.from({ length: 8 }, () => windowStart + 90_000),
      ...Array.from({ length: 12 }, () => windowStart + 119_999),
      ...Array.from({ length: 12 }, () => windowStart + 240_000),
    ];
    let admitted = 0;
    for (const [i, now] of times.entries()) {
      const expected = await memory.admit(request(p, now));
      const actual = await (i % 2 ? a : b).admit(request(p, now));
      expect(shape(actual), `call ${i} at +${now - windowStart} ms`).toEqual(shape(expected));
      if (actual.allowed) admitted++;
      await actual.release();
    }
    // 10 at the start; none until exactly 60 s later, when all 10 have left; then 10 per minute.
    expect(admitted).toBe(10 + 0 + 4 + 6 + 0 + 10);
    const peek = await a.peek(request(p, windowStart + 240_000));
    expect(peek).toEqual(await memory.peek(request(p, windowStart + 240_000)));
  });

  it('is exact on the quota over 10,000 calls split across both instances, and flushes each call once', async () => {
    const [a, b] = pair();
    const p = policy({ quotaPerMonth: 10_000 });
    const customerId = `cus_quota_${transportName}`;
    const reasons = new Map<string, number>();
    await runParallel(10_050, 48, async (i) => {
      const limiter = i % 2 ? a : b;
      const decision = await limiter.admit(request(p, JAN_15 + i, { customerId }));
      reasons.set(String(decision.reason), (reasons.get(String(decision.reason)) ?? 0) + 1);
      await decision.release();
    });
    expect(reasons.get('null')).toBe(10_000);
    expect(reasons.get('quota')).toBe(50);
    expect(await a.monthCount(customerId, 'live', '2026-01')).toBe(10_000);
    await a.runJobs(JAN_15);
    await b.runJobs(JAN_15);
    await a.runJobs(JAN_15);
    expect(await accounts.getUsage(customerId, 'live', '2026-01')).toBe(10_000);
    expect(a.pendingCalls(customerId, 'live', '2026-01') + b.pendingCalls(customerId, 'live', '2026-01')).toBe(0);
  }, 120_000);

  it('rolls the quota over at 00:00 UTC on the 1st', async () => {
    const [a, b] = pair();
    const memory = createMemoryLimiter();
    const p = policy({ quotaPerMonth: 3 });
    const lastMs = Date.UTC(2026, 0, 31, 23, 59, 59, 999);
    const times = [lastMs - 5_000, lastMs - 4_000, lastMs - 3_000, lastMs, lastMs + 1, lastMs + 2];
    const decisions = [];
    for (const [i, now] of times.entries()) {
      const actual = await (i % 2 ? a : b).admit(request(p, now, { customerId: 'cus_rollover' }));
      expect(shape(actual)).toEqual(shape(await memory.admit(request(p, now, { customerId: 'cus_rollover' }))));
      decisions.push(actual);
      await actual.release();
    }
    expect(decisions.map((d) => d.reason)).toEqual([null, null, null, 'quota', null, null]);
    expect(decisions[3]!.retryAfterSeconds).toBe(1);
    expect(decisions[5]!.monthCount).toBe(2);
    expect(await a.monthCount('cus_rollover', 'live', '2026-01')).toBe(3);
    expect(await b.monthCount('cus_rollover', 'live', '2026-02')).toBe(2);
  });

  it('never refuses bill and contract customers on the quota', async () => {
    const [a, b] = pair();
    for (const quotaMode of ['bill', 'contract'] as const) {
      const p = policy({ quotaPerMonth: 2, quotaMode });
      const customerId = `cus_${quotaMode}`;
      for (let i = 0; i < 5; i++) {
        const d = await (i % 2 ? a : b).admit(request(p, JAN_15, { customerId }));
        expect(d.allowed).toBe(true);
        expect(d.monthCount).toBe(i + 1);
        await d.release();
      }
    }
  });

  it('frees a lease at 60 s when release is never called', async () => {
    const [a, b] = pair();
    const p = policy({ concurrency: 1 });
    const held = await a.admit(request(p, JAN_15, { keyId: 'key_lease' }));
    expect(held.allowed).toBe(true);
    expect((await b.admit(request(p, JAN_15 + 59_999, { keyId: 'key_lease' }))).reason).toBe('concurrency');
    const after = await b.admit(request(p, JAN_15 + 60_000, { keyId: 'key_lease' }));
    expect(after.allowed).toBe(true);
    // Concurrency is per key: another key of the same customer is not held back.
    const other = await a.admit(request(p, JAN_15 + 60_000, { keyId: 'key_other' }));
    expect(other.allowed).toBe(true);
    await after.release();
    await after.release(); // idempotent
    expect((await a.admit(request(p, JAN_15 + 60_001, { keyId: 'key_lease' }))).allowed).toBe(true);
  });

  it('takes the limits from the policy of each call (a tier flip applies on the next request)', async () => {
    const [a, b] = pair();
    const small = policy({ burstPerMinute: 2 });
    await a.admit(request(small, JAN_15, { customerId: 'cus_flip' }));
    await b.admit(request(small, JAN_15, { customerId: 'cus_flip' }));
    expect((await a.admit(request(small, JAN_15, { customerId: 'cus_flip' }))).reason).toBe('burst');
    const upgraded = await b.admit(request(policy({ burstPerMinute: 5 }), JAN_15, { customerId: 'cus_flip' }));
    expect(upgraded.allowed).toBe(true);
    expect(upgraded.remaining).toBe(2);
    // Burst and quota are per customer + environment: the test environment counts apart.
    expect((await a.admit(request(small, JAN_15, { customerId: 'cus_flip', environment: 'test' }))).monthCount).toBe(1);
  });

  it('re-seeds a missing month counter from durable usage', async () => {
    const [a] = pair();
    await accounts.addUsage('cus_seeded', 'live', '2026-01', 41);
    const d = await a.admit(request(policy(), JAN_15, { customerId: 'cus_seeded' }));
    expect(d.monthCount).toBe(42);
    await a.runJobs(JAN_15);
    expect(await accounts.getUsage('cus_seeded', 'live', '2026-01')).toBe(42);
    expect(await a.monthCount('cus_seeded', 'live', '2026-01')).toBe(42);
  });

  it('limits the public routes per IP with the same window as the memory limiter', async () => {
    const [a, b] = pair();
    const memory = createMemoryLimiter();
    const windowStart = Math.floor(JAN_15 / 60_000) * 60_000;
    for (const [i, now] of [windowStart, windowStart, windowStart, windowStart + 30_000, windowStart + 30_000, windowStart + 61_000].entries()) {
      for (const ip of ['198.51.100.1', '2001:db8::1']) {
        expect(await (i % 2 ? a : b).admitPublic(ip, 2, now)).toEqual(await memory.admitPublic(ip, 2, now));
      }
    }
  });

  it('keeps windows of another length apart, and peeks without counting, as the memory limiter does', async () => {
    const [a, b] = pair();
    const memory = createMemoryLimiter();
    const hour = 3_600_000;
    const hourStart = Math.floor(JAN_15 / hour) * hour;
    const steps: Array<[number, { windowMs?: number; peek?: boolean }]> = [
      [hourStart, { windowMs: hour }],
      [hourStart + 1, { windowMs: hour, peek: true }],
      [hourStart + 2, { windowMs: hour }],
      [hourStart + 3, { windowMs: hour, peek: true }],
      [hourStart + 4, { windowMs: hour }],
      [hourStart + 5, {}],
      [hourStart + 20 * 60_000, { windowMs: hour }],
      [hourStart + hour + 60_000, { windowMs: hour }],
    ];
    for (const [i, [now, window]] of steps.entries()) {
      const subject = 'login-mail:0123abcd';
      expect(await (i % 2 ? a : b).admitPublic(subject, 2, now, window), `step ${i}`).toEqual(await memory.admitPublic(subject, 2, now, window));
    }
  });

  it('falls back from EVALSHA to EVAL when Redis lost its scripts', async () => {
    const [a] = pair();
    await transports[0]!.redis.scriptFlush();
    const d = await a.admit(request(policy(), JAN_15, { customerId: 'cus_noscript' }));
    expect(d.allowed).toBe(true);
    expect((await a.admit(request(policy(), JAN_15, { customerId: 'cus_noscript' }))).monthCount).toBe(2);
  });
});
