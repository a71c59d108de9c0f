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
 *
 * BENCH_BASELINE_ROOT=<another checkout, npm ci and `npm run build -w @catalogue/core` done>
 * adds that checkout's service (its packages/core/dist, wired the same way, the same native
 * SHA-256) to the same rounds: a change to core's request path is measured against the previous
 * main in one run on one machine state (issue 38).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createService, issueCustomerKey, type Service } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { nativeHasher } from '@catalogue/host-kit';
import { IttyRouter } from 'itty-router';
import { Bench } from 'tinybench';
import { fixtureData } from '../../test/support/fixture-data.js';
import { resultFile } from '../result-file.js';

const BASE = 'http://bench.local';
// Made first: its header's start time and load average are the run's, not its end's.
const table = resultFile('gate');
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

/** The baseline checkout's service, as hosts wire it, over the same catalogue rows and a key of its own. */
async function baselineService(root: string): Promise<{ service: Service; key: string }> {
  const dist = join(root, 'packages/core/dist');
  if (!existsSync(join(dist, 'index.js'))) throw new Error(`BENCH_BASELINE_ROOT: build it first (npm run build -w @catalogue/core in ${root})`);
  const core = (await import(pathToFileURL(join(dist, 'index.js')).href)) as typeof import('@catalogue/core');
  const memory = (await import(pathToFileURL(join(dist, 'memory/index.js')).href)) as typeof import('@catalogue/core/memory');
  const baseAccounts = memory.createMemoryAccounts();
  const service = core.createService(
    {
      catalogue: memory.createMemoryCatalogue(fixtureData()),
      accounts: baseAccounts,
      limiter: memory.createMemoryLimiter(),
      hasher: nativeHasher(),
      logger: quiet,
    },
    { baseUrl: BASE },
  );
  const baseIssued = await core.issueCustomerKey(
    baseAccounts,
    { email: 'bench@example.com', tier: 'contract_2000', environment: 'live', limits: { burst_per_minute: 1e9, quota_per_month: 1e12, concurrency: 1000 } },
    new Date(),
  );
  return { service, key: baseIssued.plaintext };
}
const baselineRoot = process.env.BENCH_BASELINE_ROOT ? resolve(process.env.BENCH_BASELINE_ROOT) : null;
const baseline = baselineRoot ? await baselineService(baselineRoot) : null;

const request = () => new Request(`${BASE}/api/v1/masters/113`, { headers: { 'x-api-key': key } });

// The baseline: the same JSON (with the same links) from a bare itty-router route.
const master = await (await hosted.fetch(request())).json();
const bare = IttyRouter();
bare.get('/api/v1/masters/:id', () => new Response(JSON.stringify(master), { headers: { 'content-type': 'application/json; charset=utf-8' } }));

const viaService =
  (service: Service, plaintext = key) =>
  async () => {
    const res = await service.fetch(new Request(`${BASE}/api/v1/masters/113`, { headers: { 'x-api-key': plaintext } }));
    if (res.status !== 200) throw new Error(`service answered ${res.status}`);
    await res.text();
  };

async function viaBare() {
  const res = (await bare.fetch(request())) as Response;
  await res.text();
}

type TaskId = 'bare' | 'hosted' | 'pureJs' | 'base';
const TASKS: Partial<Record<TaskId, { name: string; fn: () => Promise<void> }>> = {
  bare: { name: 'bare itty-router route', fn: viaBare },
  hosted: { name: 'catalogue service, as hosts wire it (native SHA-256)', fn: viaService(hosted) },
  pureJs: { name: 'catalogue service, core default (pure-JS SHA-256)', fn: viaService(pureJs) },
  ...(baseline ? { base: { name: `baseline service (${baselineRoot}), as hosts wire it`, fn: viaService(baseline.service, baseline.key) } } : {}),
};
const means: Record<TaskId, number[]> = { bare: [], hosted: [], pureJs: [], base: [] };
const medians: Record<TaskId, number[]> = { bare: [], hosted: [], pureJs: [], base: [] };
const taskIds = Object.keys(TASKS) as TaskId[];

for (let round = 0; round < ROUNDS; round++) {
  const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 1000), warmupTime: 300 });
  for (const id of taskIds) bench.add(TASKS[id]?.name as string, TASKS[id]?.fn as () => Promise<void>);
  await bench.run();
  for (const id of taskIds) {
    const name = TASKS[id]?.name as string;
    const result = bench.getTask(name)?.result as { latency: { mean: number; p50: number } } | undefined;
    if (!result) throw new Error(`no result for ${name}`);
    const latency = result.latency;
    means[id].push(latency.mean * 1000);
    medians[id].push(latency.p50 * 1000);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
table.log(`${ROUNDS} interleaved rounds (medians of rounds)`);
table.log('| task | mean µs | p50 µs |');
table.log('|---|---|---|');
for (const id of taskIds) table.log(`| ${TASKS[id]?.name} | ${median(means[id]).toFixed(2)} | ${median(medians[id]).toFixed(2)} |`);
const ratio = (id: TaskId, of: Record<TaskId, number[]>, to: TaskId = 'bare') => median(of[id].map((v, i) => v / (of[to][i] as number)));
table.log(`pure-JS default hasher: mean ${ratio('pureJs', means).toFixed(2)}×, median ${ratio('pureJs', medians).toFixed(2)}×`);
table.log(`ratio (service / bare), as hosts wire it: mean ${ratio('hosted', means).toFixed(2)}×, median ${ratio('hosted', medians).toFixed(2)}×   goal ≤ 1.4×`);
if (baseline) {
  table.log(`baseline (service / bare): mean ${ratio('base', means).toFixed(2)}×, median ${ratio('base', medians).toFixed(2)}×`);
  table.log(
    `this checkout / baseline, round by round: mean ${ratio('hosted', means, 'base').toFixed(3)}×, median ${ratio('hosted', medians, 'base').toFixed(3)}× (below 1: faster)`,
  );
}
table.save();
