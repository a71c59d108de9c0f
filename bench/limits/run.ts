/**
 * bench/limits: what the Redis Limiter adds to an authenticated request, against the memory
 * Limiter in the same run.
 * - round trips to Redis per admitted request, counted at the socket by a proxy (critical path:
 *   the admit; off path: the release handed to waitUntil);
 * - p50/p99 of a whole authenticated GET /api/v1/search through createService with each
 *   limiter, and the difference to the memory limiter (the gate's added latency).
 * Goal: 1 round trip on the critical path, p99 added ≤ 2 ms on loopback.
 *
 *   node --conditions=catalogue-source --import tsx bench/limits/run.ts [requests]
 */
import { createService, emptyCatalogueData, issueCustomerKey, type Limiter } from '@catalogue/core';
import { createManualClock, createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { Redis } from '@upstash/redis';
import { createRedisLimiter } from '../../packages/upstash/src/index.js';
import { createTcpRedis } from '../../packages/upstash/src/tcp.js';
import { startUpstashRestServer } from '../../test/limits/upstash-rest-server.js';
import { startCountingProxy } from './counting-proxy.js';

const REDIS_HOST = '127.0.0.1';
const REDIS_PORT = 6379;
const REQUESTS = Number(process.argv[2] ?? 2_000);
const WARMUP = 200;
const BASE = 'http://bench.local';
const prefix = `bench:limits:${process.pid}`;

const clock = createManualClock('2026-06-10T12:00:00Z');
const accounts = createMemoryAccounts();
const catalogue = createMemoryCatalogue(emptyCatalogueData());
const issued = await issueCustomerKey(
  accounts,
  { email: 'bench@example.com', tier: 'contract_2000', environment: 'live', limits: { burst_per_minute: 1e9, quota_per_month: 1e12, concurrency: 1000 } },
  new Date(clock.now()),
);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

/** Sequential requests through the whole service; the release (waitUntil) is awaited between requests, outside the timing. */
async function measure(limiter: Limiter, count: number): Promise<number[]> {
  const service = createService({ catalogue, accounts, limiter, clock, logger: { log() {} } }, { baseUrl: BASE });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    clock.advance(1);
    const background: Promise<unknown>[] = [];
    const started = performance.now();
    const response = await service.fetch(new Request(`${BASE}/api/v1/search?q=dub`, { headers: { 'x-api-key': issued.plaintext } }), {
      waitUntil: (p) => background.push(p),
    });
    await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200 || !response.headers.has('x-ratelimit-limit')) throw new Error(`request ${i}: ${response.status} without a limit decision`);
    await Promise.all(background);
  }
  return times.sort((a, b) => a - b);
}

/** Round trips of the admit alone and of the release, per admitted request, through the proxy. */
async function countRoundTrips(limiter: Limiter, proxy: { roundTrips(): number; reset(): void }, count: number) {
  const policy = { burstPerMinute: 1e9, concurrency: 1e9, quotaPerMonth: 1e12, quotaMode: 'contract' as const };
  // Warm: loads the script (EVALSHA → NOSCRIPT → EVAL once) and seeds the month counter.
  for (let i = 0; i < 5; i++) await (await limiter.admit({ customerId: 'bench_rt', environment: 'live', keyId: 'k', policy, now: clock.now() })).release();
  let admitTrips = 0;
  let releaseTrips = 0;
  for (let i = 0; i < count; i++) {
    proxy.reset();
    const decision = await limiter.admit({ customerId: 'bench_rt', environment: 'live', keyId: 'k', policy, now: clock.now() + i });
    if (!decision.allowed) throw new Error('refused');
    admitTrips += proxy.roundTrips();
    proxy.reset();
    await decision.release();
    releaseTrips += proxy.roundTrips();
  }
  return { admit: admitTrips / count, release: releaseTrips / count };
}

const proxy = await startCountingProxy(REDIS_HOST, REDIS_PORT);
const counted = createTcpRedis(`redis://${REDIS_HOST}:${proxy.port}`);
const tcp = createTcpRedis(`redis://${REDIS_HOST}:${REDIS_PORT}`);
const rest = await startUpstashRestServer(`redis://${REDIS_HOST}:${REDIS_PORT}`);
await Promise.all([counted.ready(), tcp.ready()]);
const restRedis = new Redis({ url: rest.url, token: rest.token, retry: false, enableTelemetry: false });

// A generous timeout: the bench measures latency, it must not fail open.
const redisLimiter = (redis: Redis) => createRedisLimiter({ redis, accounts, clock, prefix, timeoutMs: 5_000 });
const trips = await countRoundTrips(redisLimiter(counted.redis), proxy, 500);

const runs: Array<[string, Limiter]> = [
  ['memory', createMemoryLimiter()],
  ['redis tcp (ioredis requester)', redisLimiter(tcp.redis)],
  ['redis rest (local Upstash REST server)', redisLimiter(restRedis)],
];
const results = new Map<string, number[]>();
for (const [name, limiter] of runs) {
  await measure(limiter, WARMUP);
  results.set(name, await measure(limiter, REQUESTS));
}
// Interleave a second memory pass so machine load drifts affect both sides alike.
results.set(
  'memory',
  [...(results.get('memory') ?? []), ...(await measure(runs[0]![1], REQUESTS))].sort((a, b) => a - b),
);

const memory = results.get('memory') ?? [];
const m50 = percentile(memory, 50);
const m99 = percentile(memory, 99);
const ms = (x: number) => `${x.toFixed(3)} ms`;
const rows = [...results].map(([name, times]) => {
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  return {
    limiter: name,
    p50: ms(p50),
    p99: ms(p99),
    'added p50': name === 'memory' ? '—' : ms(p50 - m50),
    'added p99': name === 'memory' ? '—' : ms(p99 - m99),
  };
});
console.log(`\nRound trips to Redis per admitted request (counted at the socket, ${500} admits, tcp):`);
console.table([{ 'critical path (admit)': trips.admit, 'off path (release)': trips.release }]);
console.log(`\nAuthenticated GET /api/v1/search through createService, ${REQUESTS} sequential requests each:`);
console.table(rows);

// Clean up the bench's keys.
for (let cursor = '0'; ; ) {
  const [next, keys] = await tcp.connection.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
  if (keys.length > 0) await tcp.connection.del(...keys);
  cursor = next;
  if (cursor === '0') break;
}
await Promise.all([counted.close(), tcp.close(), rest.close(), proxy.close()]);
