/**
 * A busy host is not an unreachable store (issue 27, spec Limits rule 9): a spike that keeps the
 * host's event loop past the 50 ms deadline must not make it fail open while Redis answers in
 * microseconds. The spike is modelled as it happens on a host: the turn that receives it makes
 * every admit, then the host keeps its loop busy (parsing, routing, answering) in that turn and
 * the next, while Redis's replies wait unread in the socket. Against the shared Redis on 6379,
 * over both transports (the REST stand-in in a process of its own, as Upstash is remote).
 */
import type { LimitDecision } from '@catalogue/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAccounts, type MemoryAccounts } from '../../packages/core/src/memory/accounts.js';
import { createRedisLimiter, type RedisLimiter } from '../../packages/upstash/src/index.js';
import { deleteKeys, policy, request, SHARED_REDIS_URL, uniquePrefix } from './fixtures.js';
import { openTransport, TRANSPORTS, type Transport } from './transports.js';
import { openRestTransportInOwnProcess } from './upstash-rest-process.js';

const NOW = Date.UTC(2026, 2, 10, 8, 0, 0);
const MONTH = '2026-03';
/**
 * The production limit on TCP. The REST stand-in is a Node process of its own that must parse
 * and answer 600 HTTP requests: on a loaded 2-core machine that alone can take more than 50 ms,
 * which is the store being slow, not the host; it gets a limit it can keep.
 */
const TIMEOUT_MS = { tcp: 50, rest: 250 } as const;

/** The host's own work: the thread is blocked for `ms`, so the loop reads no I/O meanwhile. */
function keepLoopBusy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(TRANSPORTS)('a busy host over %s', (transportName) => {
  const prefix = uniquePrefix(`busy-${transportName}`);
  let transport: Transport;
  let accounts: MemoryAccounts;
  let limiter: RedisLimiter;
  let failOpens: number;
  /** Durable usage reads, per customer: a spike on a missing month counter makes one. */
  const usageReads = new Map<string, number>();

  beforeAll(async () => {
    transport = transportName === 'rest' ? await openRestTransportInOwnProcess(SHARED_REDIS_URL) : await openTransport(transportName, SHARED_REDIS_URL);
    accounts = createMemoryAccounts();
    const getUsage = accounts.getUsage.bind(accounts);
    accounts.getUsage = (customerId, environment, month) => {
      usageReads.set(customerId, (usageReads.get(customerId) ?? 0) + 1);
      return getUsage(customerId, environment, month);
    };
    failOpens = 0;
    limiter = createRedisLimiter({ redis: transport.commands, accounts, prefix, timeoutMs: TIMEOUT_MS[transportName] });
    // Warm the connection and the script cache, so the spike measures a running store.
    await limiter.admit(request(policy(), NOW, { customerId: 'cus_warm' }));
  });
  afterAll(async () => {
    await transport.close();
    await deleteKeys(SHARED_REDIS_URL, prefix);
  });

  /** `n` admits made in one turn, then `busyMs` of the host's own work in it and in the next. */
  async function spike(n: number, customerId: string, busyMs: number, p = policy()): Promise<Array<LimitDecision | Error>> {
    const outcomes = Array.from({ length: n }, (_, i) =>
      limiter.admit(request(p, NOW + 1, { customerId, keyId: `${customerId}_key_${i % 3}` })).then(
        (decision) => decision,
        (error: Error) => {
          failOpens++;
          return error;
        },
      ),
    );
    keepLoopBusy(busyMs);
    await nextTurn();
    keepLoopBusy(busyMs);
    return Promise.all(outcomes);
  }

  it('serves exactly the quota left, with no fail-open, when the loop is late past the deadline', async () => {
    const customerId = `cus_quota_${transportName}`;
    // 300 calls left of 1,000 this month.
    await accounts.addUsage(customerId, 'live', MONTH, 700);
    const outcomes = await spike(600, customerId, 3 * TIMEOUT_MS[transportName], policy({ quotaPerMonth: 1_000 }));
    expect(outcomes.filter((o) => o instanceof Error)).toEqual([]);
    const decisions = outcomes as LimitDecision[];
    expect(decisions.filter((d) => d.allowed)).toHaveLength(300);
    expect(decisions.filter((d) => d.reason === 'quota')).toHaveLength(300);
    expect(failOpens).toBe(0);
    // 600 admits found the month counter missing at once; they seeded it from one durable read.
    expect(usageReads.get(customerId)).toBe(1);
  });

  it('serves exactly the burst, with no fail-open', async () => {
    const customerId = `cus_burst_${transportName}`;
    const outcomes = await spike(300, customerId, 3 * TIMEOUT_MS[transportName], policy({ burstPerMinute: 150 }));
    expect(outcomes.filter((o) => o instanceof Error)).toEqual([]);
    const decisions = outcomes as LimitDecision[];
    expect(decisions.filter((d) => d.allowed)).toHaveLength(150);
    expect(decisions.filter((d) => d.reason === 'burst')).toHaveLength(150);
    expect(failOpens).toBe(0);
  });

  it('admits no more than the concurrency cap, with no fail-open', async () => {
    const customerId = `cus_conc_${transportName}`;
    const outcomes = await spike(240, customerId, 3 * TIMEOUT_MS[transportName], policy({ concurrency: 4 }));
    expect(outcomes.filter((o) => o instanceof Error)).toEqual([]);
    const decisions = outcomes as LimitDecision[];
    // One key per third of the calls (keyId above): the cap is per key.
    expect(decisions.filter((d) => d.allowed)).toHaveLength(3 * 4);
    expect(failOpens).toBe(0);
    await Promise.all(decisions.map((d) => d.release()));
  });
});
