/**
 * bench/gate: the in-process cost of an authenticated GET /api/v1/masters/{id} through the
 * whole service (gate, limiter, validation, catalogue, headers) against a bare itty-router
 * route answering the same JSON, measured in the same run. Goal: ratio ≤ 1.5×.
 *
 *   npm run bench:gate    (builds @catalogue/core first: it measures the code as shipped in dist/)
 */
import { createService, issueCustomerKey } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { nativeHasher } from '@catalogue/host-kit';
import { IttyRouter } from 'itty-router';
import { Bench } from 'tinybench';
import { fixtureData } from '../../test/support/fixture-data.js';

const BASE = 'http://bench.local';
const catalogue = createMemoryCatalogue(fixtureData());
const accounts = createMemoryAccounts();
// The hasher as every host wires it (host-kit's createServiceFromEnv): the runtime's native SHA-256.
const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), hasher: nativeHasher(), logger: { log() {} } }, { baseUrl: BASE });
// Limits high enough that the benchmark measures the gate's work, never a 429.
const issued = await issueCustomerKey(
  accounts,
  { email: 'bench@example.com', tier: 'contract_2000', environment: 'live', limits: { burst_per_minute: 1e9, quota_per_month: 1e12, concurrency: 1000 } },
  new Date(),
);
const key = issued.plaintext;

// The baseline: the same JSON (with the same links) from a bare itty-router route.
const master = await (await service.fetch(new Request(`${BASE}/api/v1/masters/113`, { headers: { 'x-api-key': key } }))).json();
const bare = IttyRouter();
bare.get('/api/v1/masters/:id', () => new Response(JSON.stringify(master), { headers: { 'content-type': 'application/json; charset=utf-8' } }));

async function viaService() {
  const res = await service.fetch(new Request(`${BASE}/api/v1/masters/113`, { headers: { 'x-api-key': key } }));
  if (res.status !== 200) throw new Error(`service answered ${res.status}`);
  await res.text();
}

async function viaBare() {
  const res = (await bare.fetch(new Request(`${BASE}/api/v1/masters/113`, { headers: { 'x-api-key': key } }))) as Response;
  await res.text();
}

const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 3000), warmupTime: 500 });
bench.add('bare itty-router route', viaBare).add('catalogue service (gate + limiter + route)', viaService);
await bench.run();

const [b, s] = bench.tasks.map((t) => t.result as { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } });
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { latency: { mean: number; p50?: number; p99?: number }; throughput: { mean: number } };
    return {
      task: t.name,
      'ops/s': Math.round(r.throughput.mean),
      'mean µs': (r.latency.mean * 1000).toFixed(2),
      'p99 µs': ((r.latency.p99 ?? Number.NaN) * 1000).toFixed(2),
    };
  }),
);
const ratio = (s as { latency: { mean: number } }).latency.mean / (b as { latency: { mean: number } }).latency.mean;
const median = (r: unknown) => (r as { latency: { p50: number } }).latency.p50;
console.log(`ratio (service / bare): mean ${ratio.toFixed(2)}×, median ${(median(s) / median(b)).toFixed(2)}×   goal ≤ 1.5×`);
