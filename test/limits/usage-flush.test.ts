/**
 * Durable usage does not depend on the instance that counted a call staying alive (issue 27
 * item 2, docs/decisions.md §8): the month counters in Redis are flushed to PostgreSQL by
 * whichever instance runs its jobs, once; a Redis that restarts empty is re-seeded and each live
 * instance counts again what the lost counter had not made durable; an instance stopping while
 * Redis is stalled writes its calls by their places, which the counter's next flush skips.
 * Real PostgreSQL (usage_months, usage_flushes) and a redis-server of the test's own.
 */
import type { Environment } from '@catalogue/core';
import { createPostgresAccounts, migrate } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accounts } from '../../packages/core/src/ports/index.js';
import { createRedisLimiter, type RedisLimiter } from '../../packages/upstash/src/index.js';
import { FLUSH_CLAIM_SCRIPT } from '../../packages/upstash/src/scripts.js';
import { createTcpRedis, type TcpRedis } from '../../packages/upstash/src/tcp.js';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { policy, request } from './fixtures.js';
import { createRedisProcess, type RedisProcess } from './redis-process.js';

const NOW = Date.UTC(2026, 2, 10, 8, 0, 0);
const MONTH = '2026-03';
const CREATED = new Date('2026-01-01T00:00:00Z');

describe('durable usage flushed from the shared counters', () => {
  let db: TestDatabase;
  let accounts: Accounts;
  let redis: RedisProcess;
  const connections: TcpRedis[] = [];
  let customers = 0;

  beforeAll(async () => {
    db = await createPostgresDatabase();
    await migrate(db.sql);
    accounts = createPostgresAccounts(db.sql);
    redis = await createRedisProcess();
    await redis.start();
  });
  afterAll(async () => {
    for (const connection of connections) await connection.close();
    await redis?.kill();
    await db?.drop();
  });

  async function newCustomer(): Promise<string> {
    const id = `cus_flush_${++customers}`;
    const hash = String(customers).padStart(64, 'f');
    await accounts.createCustomerWithKey(
      { id, email: `${id}@example.com`, name: null, tier: 'contract_2000', created_at: CREATED },
      { id: `key_${id}`, hash, display_prefix: 'ck_live_abcd', environment: 'live', created_at: CREATED },
    );
    return id;
  }

  /** An instance: its own connection and limiter (what a host process holds). */
  async function instance(options: { flushClaimTtlMs?: number; timeoutMs?: number } = {}): Promise<{ limiter: RedisLimiter; tcp: TcpRedis }> {
    const tcp = createTcpRedis(redis.url);
    connections.push(tcp);
    await tcp.ready();
    return { tcp, limiter: createRedisLimiter({ redis: tcp.commands, accounts, prefix: 'flush', clock: { now: () => NOW }, ...options }) };
  }

  async function admitted(limiter: RedisLimiter, customerId: string, n: number, environment: Environment = 'live'): Promise<void> {
    const decisions = await Promise.all(Array.from({ length: n }, () => limiter.admit(request(policy(), NOW, { customerId, environment }))));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    await Promise.all(decisions.map((d) => d.release()));
  }

  const durable = (customerId: string, environment: Environment = 'live') => accounts.getUsage(customerId, environment, MONTH);

  it("an instance that never counted a customer's calls makes them durable after the counting instance died", async () => {
    const customerId = await newCustomer();
    const crashed = await instance();
    await admitted(crashed.limiter, customerId, 200);
    await admitted(crashed.limiter, customerId, 7, 'test');
    // kill -9: no close, no jobs; its connection just goes away.
    await crashed.tcp.close();
    const survivor = await instance();
    await survivor.limiter.runJobs(NOW + 60_000);
    expect(await durable(customerId)).toBe(200);
    expect(await durable(customerId, 'test')).toBe(7);
    // Every instance flushes every minute: nothing is added twice.
    const third = await instance();
    await Promise.all([survivor.limiter.runJobs(NOW + 120_000), third.limiter.runJobs(NOW + 120_000)]);
    expect(await durable(customerId)).toBe(200);
  });

  it('a flush whose instance died after claiming, before or after writing, is taken over and lands once', async () => {
    const customerId = await newCustomer();
    const { limiter, tcp } = await instance({ flushClaimTtlMs: 300 });
    await admitted(limiter, customerId, 40);
    const monthKey = limiter.keys.month(customerId, 'live', MONTH);
    // A flusher claims (0, 40] and dies before PostgreSQL.
    const claim = await tcp.commands.evalScript<[string, string, number, number]>(FLUSH_CLAIM_SCRIPT, [monthKey], ['300']);
    expect(claim.slice(2)).toEqual([0, 40]);
    // While its claim is fresh nobody else flushes the counter.
    await limiter.runJobs(NOW);
    expect(await durable(customerId)).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await limiter.runJobs(NOW);
    expect(await durable(customerId)).toBe(40);

    // Next: a flusher writes (40, 50] to PostgreSQL and dies before it tells Redis.
    await admitted(limiter, customerId, 10);
    const second = await tcp.commands.evalScript<[string, string, number, number]>(FLUSH_CLAIM_SCRIPT, [monthKey], ['300']);
    expect(second.slice(2)).toEqual([40, 50]);
    await accounts.flushUsage({ customerId, environment: 'live', month: MONTH, generation: second[1], from: 40, upto: 50 });
    expect(await durable(customerId)).toBe(50);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await limiter.runJobs(NOW);
    expect(await durable(customerId)).toBe(50);
    await admitted(limiter, customerId, 5);
    await limiter.runJobs(NOW);
    expect(await durable(customerId)).toBe(55);
  });

  it('after Redis restarts empty, each live instance counts again what the lost counter had not made durable', async () => {
    const customerId = await newCustomer();
    const a = await instance();
    const b = await instance();
    await admitted(a.limiter, customerId, 30);
    await admitted(b.limiter, customerId, 20);
    await a.limiter.runJobs(NOW);
    expect(await durable(customerId)).toBe(50);
    // Counted, not yet flushed, then lost with Redis.
    await admitted(a.limiter, customerId, 12);
    await admitted(b.limiter, customerId, 8);
    await redis.kill();
    await redis.start();
    for (const { tcp } of [a, b]) {
      while (tcp.connection.status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The counter is re-seeded from PostgreSQL by the next call, and each instance's jobs count its lost calls again.
    await admitted(b.limiter, customerId, 1);
    await a.limiter.runJobs(NOW + 60_000);
    await b.limiter.runJobs(NOW + 60_000);
    expect(await durable(customerId)).toBe(71);
    expect(await a.limiter.monthCount(customerId, 'live', MONTH)).toBe(71);
    await a.limiter.runJobs(NOW + 120_000);
    await b.limiter.runJobs(NOW + 120_000);
    expect(await durable(customerId)).toBe(71);
  });

  it('an instance stopping while Redis is stalled loses none of its calls, and the flush after Redis resumes adds none twice', async () => {
    const customerId = await newCustomer();
    const stopping = await instance({ timeoutMs: 50 });
    const other = await instance();
    await admitted(stopping.limiter, customerId, 25);
    await admitted(other.limiter, customerId, 5);
    redis.pause();
    try {
      await stopping.limiter.close?.();
    } finally {
      redis.resume();
    }
    expect(await durable(customerId)).toBe(25);
    // Redis kept its data: the next flush moves the other instance's 5 and skips the 25.
    await other.limiter.runJobs(NOW);
    expect(await durable(customerId)).toBe(30);
  });
});
