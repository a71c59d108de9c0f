/**
 * bench/gate: the in-process cost of an authenticated GET /api/v1/masters/{id} through the
 * whole service (gate, limiter, validation, catalogue, headers) against a bare itty-router
 * route answering the same JSON, measured in the same run. Goal: ratio ≤ 1.4× (issue 14: the 1.5× goal with margin against noise).
 *
 *   npm run bench:gate    (builds @catalogue/core and @catalogue/host-kit first: it measures
 *                          the code as shipped in dist/)
 *
 * The service is wired as every host wires it (host-kit's createServiceFromEnv): memory
 * ports here, and the runtime's native SHA-256 as the gate's Hasher. A second service with
 * core's pure-JS default hasher (what an embedder gets without injecting one) is measured too.
 * Tasks run interleaved in several rounds, so drift on a shared machine hits them alike.
 */
import { createService, issueCustomerKey, type Service } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { nativeHasher } from '@catalogue/host-kit';
import { IttyRouter } from 'itty-router';
import { Bench } from 'tinybench';
import { fixtureData } from '../../test/support/fixture-data.js';
import { resultFile } from '../result-file.js';

const BASE = 'http://bench.local';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const catalogue = createMemoryCatalogue(fixtureData());
const accounts = createMemoryAccounts();
const quiet = { log() {} };
const hosted = createService({ catalogue, accounts, limiter: createMemoryLimiter(), hasher: nativeHasher(), logger: quiet }, { baseUrl: BASE });
const pureJs = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: quiet }, { baseUrl: BASE });
// Limits high enough that the benchmark measures the gate's work, never a 429.
const issued = await issueCustomerKey(
  accounts,
  { email: 'bench@example.com', tier: 'contract_2000', environment: 'live', limits: { burst_per_minute: 1e9, quota_per_month: 1e12, concurrency: 1000 } },
  new Date(),
);
const key = issued.plaintext;
const request = () => new Request(`${BASE}/api/v1/masters/113`, { headers: { 'x-api-key': key } });

// The baseline: the same JSON (with the same links) from a bare itty-router route.
const master = await (await hosted.fetch(request())).json();
const bare = IttyRouter();
bare.get('/api/v1/masters/:id', () => new Response(JSON.stringify(master), { headers: { 'content-type': 'application/json; charset=utf-8' } }));

const viaService = (service: Service) => async () => {
  const res = await service.fetch(request());
  if (res.status !== 200) throw new Error(`service answered ${res.status}`);
  await res.text();
};

async function viaBare() {
  const res = (await bare.fetch(request())) as Response;
  await res.text();
}

const TASKS = {
  bare: { name: 'bare itty-router route', fn: viaBare },
  hosted: { name: 'catalogue service, as hosts wire it (native SHA-256)', fn: viaService(hosted) },
  pureJs: { name: 'catalogue service, core default (pure-JS SHA-256)', fn: viaService(pureJs) },
};
type TaskId = keyof typeof TASKS;
const means: Record<TaskId, number[]> = { bare: [], hosted: [], pureJs: [] };
const medians: Record<TaskId, number[]> = { bare: [], hosted: [], pureJs: [] };

for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 1000), warmupTime: 300 });
  for (const { name, fn } of Object.values(TASKS)) bench.add(name, fn);
  await bench.run();
  for (const [id, { name }] of Object.entries(TASKS) as Array<[TaskId, { name: string }]>) {
    const result = bench.getTask(name)?.result as { latency: { mean: number; p50: number } } | undefined;
    if (!result) throw new Error(`no result for ${name}`);
    const latency = result.latency;
    means[id].push(latency.mean * 1000);
    medians[id].push(latency.p50 * 1000);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
const table = resultFile('gate');
table.log(`${ROUNDS} interleaved rounds (medians of rounds)`);
table.log('| task | mean µs | p50 µs |');
table.log('|---|---|---|');
for (const id of Object.keys(TASKS) as TaskId[]) table.log(`| ${TASKS[id].name} | ${median(means[id]).toFixed(2)} | ${median(medians[id]).toFixed(2)} |`);
const ratio = (id: TaskId, of: Record<TaskId, number[]>) => median(of[id].map((v, i) => v / (of.bare[i] as number)));
table.log(`pure-JS default hasher: mean ${ratio('pureJs', means).toFixed(2)}×, median ${ratio('pureJs', medians).toFixed(2)}×`);
table.log(`ratio (service / bare), as hosts wire it: mean ${ratio('hosted', means).toFixed(2)}×, median ${ratio('hosted', medians).toFixed(2)}×   goal ≤ 1.4×`);
table.save();
