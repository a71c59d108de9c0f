/**
 * `npm run bench:prodpath`: an authenticated GET /api/v1/masters/{id} on the configuration
 * operators run — the Node host on PostgreSQL (DATABASE_URL) and Redis (REDIS_URL) with a
 * contract key — against, in the same run:
 * - bare: node:http answering one master's JSON from memory (the runtime's ceiling);
 * - bare+pg: node:http + postgres.js doing the same lookup (`SELECT record FROM master_records
 *   WHERE master_id = $1`), nothing else (bare-pg.mjs);
 * - host, no redis: the host on PostgreSQL with the in-process limiter;
 * - host, 2 workers (Node): the host with WEB_CONCURRENCY=2, a node:cluster primary and two
 *   workers on the same port, against `host` (one process): the ratio says what a second worker
 *   adds on this machine, whose cores PostgreSQL, Redis and autocannon share.
 * The same for Bun (BENCH_RUNTIMES=node,bun). autocannon, BENCH_CONNECTIONS (20) connections,
 * ids cycling over 200 masters, BENCH_ROUNDS (3) interleaved rounds of BENCH_SECONDS (8) s per
 * target after a 2 s warm-up; medians.
 * BENCH_TARGETS=host,bare+pg measures only those targets (`host-no-redis`, `host-2-workers` for those); BENCH_CPU_PROF_DIR=<dir> starts every
 * Node child with --cpu-prof there (a profile per child, written when it stops).
 * BENCH_BASELINE_ROOT=<another checkout, its npm ci done> adds "base host": that checkout's host
 * on the same PostgreSQL + Redis, in the same interleaved rounds, so a change is measured
 * against main in one run on one machine state (`base-host` in BENCH_TARGETS).
 * BENCH_LOG_LEVEL (default error: no access log) is every host's LOG_LEVEL, the base host's too:
 * `info` measures the hosts with their access log on, one JSON line per request on stdout, which
 * this process reads as a log shipper would (issue 31).
 * Beside req/s it prints the CPU each request cost in the target's process, the PostgreSQL
 * backends and Redis (cpu.ts): the figure that holds still when other work shares the cores.
 *
 * Goal (issue 14): the Node host ≥ 0.75× bare+pg, and its p99 at most 2 ms above bare+pg's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCatalogue } from '@catalogue/importer';
import { writeCatalogue } from '@catalogue/importer/seed';
import { connectPostgres, createPostgresWriter, migrate } from '@catalogue/postgres';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { POSTGRES_ADMIN_URL } from '../../test/conformance/databases.js';
import { commandFor, freePort, ROOT } from '../../test/hosts/process-host.js';
import { createRedisProcess, type RedisProcess } from '../../test/limits/redis-process.js';
import { resultFile } from '../result-file.js';
import { type CpuPerRequest, type CpuSnapshot, cpuPerRequest, cpuSnapshot } from './cpu.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const RUNTIMES = (process.env.BENCH_RUNTIMES ?? 'node,bun').split(',') as Array<'node' | 'bun'>;
const ADMIN_TOKEN = 'bench-prodpath-admin-token-0123456789';
const BIN = join(ROOT, 'node_modules/.bin');
// Names compared without spaces and punctuation: `host-no-redis` picks "host, no redis".
const targetKey = (name: string) => name.toLowerCase().replace(/[^a-z+]/g, '');
const ONLY = process.env.BENCH_TARGETS?.split(',').map(targetKey);
const PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR;
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT;
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'error';

type TargetName = 'bare' | 'bare+pg' | 'host' | 'host, 2 workers' | 'host, no redis' | 'base host';
const TARGET_NAMES: TargetName[] = ['bare', 'bare+pg', 'host', 'host, 2 workers', 'host, no redis', 'base host'];

interface Running {
  url: string;
  headers: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

interface Target {
  name: TargetName;
  runtime: 'node' | 'bun';
  start(): Promise<Running>;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  cpu: CpuPerRequest;
}

function spawnListening(command: string, args: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!/listening on/i.test(output)) return;
      // From here on the output is read and dropped: kept and searched per chunk, a host's
      // access log (BENCH_LOG_LEVEL=info) made this process's cost grow with all it had logged.
      child.stdout?.off('data', onData).resume();
      child.stderr?.off('data', onData).resume();
      output = '';
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Node's flags for a profiled run (BENCH_CPU_PROF_DIR), before the script's own arguments. */
function profiled(runtime: 'node' | 'bun', args: string[]): string[] {
  return runtime === 'node' && PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, ...args] : args;
}

function runtimeCommand(runtime: 'node' | 'bun', file: string): [string, string[]] {
  return runtime === 'node' ? [process.execPath, profiled(runtime, [file])] : [join(BIN, 'bun'), [file]];
}

/** The host of this checkout, or of `root` (BENCH_BASELINE_ROOT): the same command run there. */
async function hostTarget(runtime: 'node' | 'bun', env: Record<string, string>, root = ROOT): Promise<Running> {
  const port = await freePort();
  const [command, plain] = commandFor(runtime);
  const args = profiled(runtime, plain);
  const cleared = { BASE_URL: undefined, CATALOGUE_STORAGE: undefined, REDIS_URL: undefined, UPSTASH_REDIS_REST_URL: undefined };
  const child = await spawnListening(command, args, { ...cleared, PORT: String(port), ADMIN_TOKEN, LOG_LEVEL, NO_COLOR: '1', ...env }, root);
  const url = `http://127.0.0.1:${port}`;
  const issued = await fetch(`${url}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    // Contract limits far above what the run sends: the bench measures serving, not refusing.
    body: JSON.stringify({
      email: `bench-${Date.now()}@example.com`,
      limits: { quota_per_month: 1_000_000_000, burst_per_minute: 1_000_000, concurrency: 1000 },
    }),
  });
  if (issued.status !== 201) throw new Error(`${runtime} host: admin key answered ${issued.status}`);
  const { key } = (await issued.json()) as { key: string };
  return { url, headers: { 'x-api-key': key }, pid: child.pid as number, stop: () => stopChild(child) };
}

async function measure(running: Running, paths: string[], snapshot: (pid: number) => Promise<CpuSnapshot>): Promise<Sample> {
  const { url, headers } = running;
  const requests = paths.map((path) => ({ method: 'GET', path, headers }));
  await autocannon({ url, connections: CONNECTIONS, duration: 2, requests });
  const before = await snapshot(running.pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, requests });
  const after = await snapshot(running.pid);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: cpuPerRequest(before, after, (result.requests as { total?: number }).total ?? 0),
  };
}

const cpuText = (cpu: CpuPerRequest) => `${cpu.process.toFixed(0)} · ${cpu.postgres.toFixed(0)} · ${cpu.redis.toFixed(0)} = ${cpu.total.toFixed(0)}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  const admin = postgres(POSTGRES_ADMIN_URL, { max: 1, onnotice: () => undefined });
  const database = `bench_prodpath_${Math.random().toString(36).slice(2, 8)}`;
  await admin.unsafe(`CREATE DATABASE ${database}`);
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  const dir = mkdtempSync(join(tmpdir(), 'bench-prodpath-'));
  let redis: RedisProcess | null = null;
  try {
    const sql = connectPostgres(databaseUrl, { max: 4, statementTimeoutMs: 0 });
    await migrate(sql);
    const data = generateCatalogue({ scale: { masters: 2_000, artists: 700, labels: 120 } });
    await writeCatalogue(data, createPostgresWriter(sql));
    const ids = data.masters.slice(0, 200).map((master) => master.master_id);
    const [sample] = await sql<Array<{ record: string }>>`SELECT record::text AS record FROM master_records WHERE master_id = ${ids[0] as number}`;
    await sql.end();
    const bodyFile = join(dir, 'master.json');
    writeFileSync(bodyFile, sample?.record ?? '{}');
    const paths = ids.map((id) => `/api/v1/masters/${id}`);

    redis = await createRedisProcess();
    await redis.start();
    const redisUrl = redis.url;

    const targets: Target[] = RUNTIMES.flatMap((runtime): Target[] => [
      {
        name: 'bare',
        runtime,
        async start() {
          const port = await freePort();
          const [command, args] = runtimeCommand(runtime, join(ROOT, 'bench/http/bare-node.mjs'));
          const child = await spawnListening(command, args, { PORT: String(port), BENCH_BODY_FILE: bodyFile });
          return { url: `http://127.0.0.1:${port}`, headers: {}, pid: child.pid as number, stop: () => stopChild(child) };
        },
      },
      {
        name: 'bare+pg',
        runtime,
        async start() {
          const port = await freePort();
          const [command, args] = runtimeCommand(runtime, join(ROOT, 'bench/prodpath/bare-pg.mjs'));
          const child = await spawnListening(command, args, { PORT: String(port), DATABASE_URL: databaseUrl });
          return { url: `http://127.0.0.1:${port}`, headers: {}, pid: child.pid as number, stop: () => stopChild(child) };
        },
      },
      { name: 'host', runtime, start: () => hostTarget(runtime, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }) },
      // WEB_CONCURRENCY is the Node host's (hosts/node/src/cluster/); Bun serves one process.
      ...(runtime === 'node'
        ? [
            {
              name: 'host, 2 workers' as const,
              runtime,
              start: () => hostTarget(runtime, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, WEB_CONCURRENCY: '2' }),
            },
          ]
        : []),
      { name: 'host, no redis', runtime, start: () => hostTarget(runtime, { DATABASE_URL: databaseUrl }) },
      ...(BASELINE_ROOT
        ? [{ name: 'base host' as const, runtime, start: () => hostTarget(runtime, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }, BASELINE_ROOT) }]
        : []),
    ]).filter((target) => !ONLY || ONLY.includes(targetKey(target.name)));

    const samples = new Map<Target, Sample[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const running = await target.start();
        try {
          const sample = await measure(running, paths, (pid) => cpuSnapshot(pid, admin, database, redisUrl));
          samples.set(target, [...(samples.get(target) ?? []), sample]);
          process.stderr.write(
            `round ${round + 1} ${target.runtime} ${target.name}: ${Math.round(sample.rps)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, CPU µs/request ${cpuText(sample.cpu)}\n`,
          );
        } finally {
          await running.stop();
        }
      }
    }

    const table = resultFile('prodpath');
    table.log(
      `GET /api/v1/masters/{id} (200 ids), ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s (medians); hosts at LOG_LEVEL=${LOG_LEVEL}${LOG_LEVEL === 'info' ? ' (access log on)' : ''}`,
    );
    for (const runtime of RUNTIMES) {
      const of = (name: TargetName) => {
        const mine = samples.get(targets.find((t) => t.runtime === runtime && t.name === name) as Target) ?? [];
        const cpu = (part: keyof CpuPerRequest) => median(mine.map((s) => s.cpu[part]));
        return {
          rps: median(mine.map((s) => s.rps)),
          p50: median(mine.map((s) => s.p50)),
          p99: median(mine.map((s) => s.p99)),
          cpu: { process: cpu('process'), postgres: cpu('postgres'), redis: cpu('redis'), total: cpu('total') },
        };
      };
      const bare = of('bare');
      const pg = of('bare+pg');
      table.log(`\n${runtime}`);
      table.log('| target | req/s | p50 ms | p99 ms | / bare+pg | p99 added | CPU µs/request: process · PostgreSQL · Redis = total | bare+pg total / this |');
      table.log('|---|---|---|---|---|---|---|---|');
      for (const name of TARGET_NAMES) {
        const row = of(name);
        if (row.rps === undefined) continue; // not measured (BENCH_TARGETS)
        const ratio = name === 'bare' ? '—' : `${(row.rps / pg.rps).toFixed(2)}×`;
        const added = name === 'bare' || name === 'bare+pg' ? '—' : `${(row.p99 - pg.p99).toFixed(1)} ms`;
        const capacity = name === 'bare' ? '—' : `${(pg.cpu.total / row.cpu.total).toFixed(2)}×`;
        table.log(`| ${name} | ${Math.round(row.rps)} | ${row.p50} | ${row.p99} | ${ratio} | ${added} | ${cpuText(row.cpu)} | ${capacity} |`);
      }
      table.log(`bare+pg / bare: ${(pg.rps / bare.rps).toFixed(2)}×`);
      const base = of('base host');
      const host = of('host');
      const workers = of('host, 2 workers');
      if (workers.rps !== undefined && host.rps !== undefined)
        table.log(
          `host, 2 workers / host (WEB_CONCURRENCY=2 against 1): ${(workers.rps / host.rps).toFixed(2)}× req/s, p99 ${workers.p99} vs ${host.p99} ms, CPU ${workers.cpu.total.toFixed(0)} vs ${host.cpu.total.toFixed(0)} µs/request (all processes; the host's are the primary and its workers)`,
        );
      if (base.rps !== undefined && host.rps !== undefined)
        table.log(
          `host / base host (${BASELINE_ROOT}): ${(host.rps / base.rps).toFixed(2)}× req/s, host process CPU ${host.cpu.process.toFixed(0)} vs ${base.cpu.process.toFixed(0)} µs/request`,
        );
      if (runtime === 'node') {
        const ratio = host.rps / pg.rps;
        table.log(
          `Node goal (host ≥ 0.75× bare+pg, p99 added ≤ 2 ms): ${ratio >= 0.75 && host.p99 - pg.p99 <= 2 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×, +${(host.p99 - pg.p99).toFixed(1)} ms)`,
        );
      }
    }
    table.save();
  } finally {
    await redis?.kill();
    rmSync(dir, { recursive: true, force: true });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
