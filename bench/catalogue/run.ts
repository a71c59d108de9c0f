/**
 * bench/catalogue: the scale benchmark (README.md beside this file).
 *
 * 1. A fresh `catalogue_bench_<random>` database (or BENCH_DATABASE_URL, loaded only if empty).
 * 2. Loads the scale catalogue (SCALE_SIZES × BENCH_SCALE) in a child process through the
 *    PostgreSQL writer, measuring masters/s and that process's peak RSS.
 * 3. Serves the service through the Node host bridge in another child process on a loopback
 *    port and measures p50/p95/p99 over HTTP with 8 concurrent keep-alive clients per route.
 *
 *   npm run bench:catalogue                      # full scale (1,000,000 masters)
 *   BENCH_SCALE=0.1 npm run bench:catalogue      # 10 %
 *   BENCH_DATABASE_URL=postgres://… BENCH_ROUTES=search,facets npm run bench:catalogue
 *
 * Other knobs: BENCH_REFRESH (1; 0 skips refresh.ts on a reused, already refreshed database),
 * BENCH_CLIENTS (8), BENCH_REQUESTS per route (50000), BENCH_ROUTE_MS per route (10000),
 * BENCH_WARMUP requests per route before measuring (400),
 * BENCH_LOADER_HEAP_MB (0; the loader's V8 heap cap, 0 = none), BENCH_SERVE_NODE_FLAGS (node flags of the serving
 * process), BENCH_SERVE_GLIBC_TUNABLES (glibc malloc settings of the serving process, as
 * docs/hosts.md recommends; '' = glibc's defaults), CATALOGUE_CACHE_MB (64; the serving
 * process's record cache, 0 = none).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CpuMeter, type CpuPerRequest } from './cpu.js';
import { loadedMasters, openBenchDatabase } from './database.js';
import type { LoadFigures } from './load.js';
import { measureRoute, type Percentiles } from './measure.js';
import { printReport } from './report.js';
import { benchRoutes, type MeasuredRoute } from './routes.js';
import { benchScale } from './scale.js';
import { sampleTargets } from './targets.js';

const env = process.env;
const scale = benchScale(env);
const clients = Number(env.BENCH_CLIENTS ?? 8);
/**
 * Each route is measured for BENCH_ROUTE_MS (10 s) or BENCH_REQUESTS (50,000), whichever ends
 * first. Until the session of 2026-11-26 22:00 it was 2,000 requests (or 20 s): the master route's 2,000 took 0.4 s,
 * and its p95 was the tenth-worst of a few stalls of all 8 clients at once (a scavenge of the
 * serving process, a core taken by another process), 2.8–4.9 ms for the same code within an
 * hour. Ten seconds is what a running server sees, and its p95 holds from run to run.
 */
const maxRequests = Number(env.BENCH_REQUESTS ?? 50_000);
const maxMs = Number(env.BENCH_ROUTE_MS ?? 10_000);
/**
 * Requests each route gets first, not counted. The serving process is fresh, and V8 compiles a
 * route's path over its first few hundred calls: with 32 (the earlier default) the first route
 * measured was partly the compiler (search at 1 M masters, same database: p95 29.1 ms and 1,747 µs
 * of host CPU per request cold; 20.4 ms and 989 µs over 10,000 requests after 3,000), which a
 * server in production has long paid.
 */
const benchWarmup = Number(env.BENCH_WARMUP ?? 400);
const only = env.BENCH_ROUTES?.split(',')
  .map((name) => name.trim().toLowerCase())
  .filter(Boolean);

/**
 * V8 grows its heap lazily up to a limit sized from the machine's memory (GBs here), so an
 * uncapped loader's RSS says more about the garbage collector than about the importer. The
 * loader can run with a heap cap (MB; 0 = none, the default: at full scale the signals step
 * of finish() holds every Bandcamp series at once and needs more than 256 MB).
 */
const loaderHeapMb = Number(env.BENCH_LOADER_HEAP_MB ?? 0);

/**
 * glibc's malloc settings of the serving process, as docs/hosts.md ("Node's memory allocator")
 * tells operators to start the Node host: with glibc's defaults each ~1 MB batch answer was a
 * fresh mmap, ~256 page faults and a munmap, two thirds of the batch route's CPU on the bench
 * machine. BENCH_SERVE_GLIBC_TUNABLES='' measures glibc's defaults.
 */
const serveGlibcTunables = env.BENCH_SERVE_GLIBC_TUNABLES ?? 'glibc.malloc.mmap_threshold=16777216:glibc.malloc.trim_threshold=134217728';

/** A TypeScript entry point of this directory in a child node (workspace sources, tsx). */
function spawnScript(file: string, args: string[], stdio: 'inherit' | 'pipe', nodeFlags: string[] = [], extraEnv: Record<string, string> = {}): ChildProcess {
  const script = fileURLToPath(new URL(file, import.meta.url));
  return spawn(process.execPath, [...nodeFlags, '--conditions=catalogue-source', '--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', stdio === 'inherit' ? 'inherit' : 'pipe'],
    env: { ...process.env, ...extraEnv },
  });
}

/** The first stdout line of a child, parsed as JSON (the figures or the listening address). */
function firstJsonLine<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as T);
      } catch (error) {
        reject(new Error(`${what}: unexpected output ${line}: ${String(error)}`));
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with code ${code}`)));
    child.once('error', reject);
  });
}

async function load(url: string): Promise<LoadFigures> {
  const child = spawnScript('./load.ts', [url, String(scale)], 'inherit', loaderHeapMb > 0 ? [`--max-old-space-size=${loaderHeapMb}`] : []);
  const figures = await firstJsonLine<LoadFigures>(child, 'loader');
  await new Promise((resolve) => child.once('exit', resolve));
  return figures;
}

const database = await openBenchDatabase(env);
process.stderr.write(`database: ${database.url}${database.created ? ' (created for this run; kept for re-runs)' : ''}\n`);

const present = await loadedMasters(database.url);
let figures: LoadFigures | null = null;
if (present === 0) {
  process.stderr.write(`loading the scale catalogue × ${scale} …\n`);
  figures = await load(database.url);
  process.stderr.write(`${JSON.stringify(figures)}\n`);
} else if (env.BENCH_REFRESH === '0') {
  // Repeat runs on a database refreshed by an earlier run: refresh.ts costs ~40 s (facet totals, vacuum).
  process.stderr.write(`already loaded (${present.toLocaleString('en-US')} masters): skipping the load and the refresh (BENCH_REFRESH=0)\n`);
} else {
  process.stderr.write(`already loaded (${present.toLocaleString('en-US')} masters): skipping the load\n`);
  // Loaded by an older schema perhaps: apply pending migrations and the derived data they add.
  const refresh = spawnScript('./refresh.ts', [database.url], 'inherit');
  const code = await new Promise((resolve) => refresh.once('exit', resolve));
  if (code !== 0) throw new Error(`refresh exited with code ${code}`);
}

const targets = await sampleTargets(database.url);
// BENCH_SERVE_NODE_FLAGS: node flags of the serving process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
const serveFlags = env.BENCH_SERVE_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
const server = spawnScript('./serve.ts', [database.url], 'inherit', serveFlags, serveGlibcTunables ? { GLIBC_TUNABLES: serveGlibcTunables } : {});
const results: Array<{ route: MeasuredRoute; result: Percentiles; cpu: CpuPerRequest }> = [];
const meter = new CpuMeter(database.url, server.pid as number);
try {
  const { url, key } = await firstJsonLine<{ url: string; key: string }>(server, 'server');
  const warmup = benchWarmup;
  for (const route of benchRoutes(targets)) {
    if (only && !only.some((name) => route.route.toLowerCase().includes(name))) continue;
    process.stderr.write(`measuring ${route.route} …\n`);
    const before = await meter.snapshot();
    // A route whose targets would repeat (and so hit a cache) stops before they do.
    const routeRequests = Math.min(maxRequests, (route.distinctRequests ?? Number.POSITIVE_INFINITY) - warmup);
    if (routeRequests <= 0)
      throw new Error(`${route.route}: BENCH_WARMUP (${warmup}) leaves none of its ${route.distinctRequests} distinct targets to measure`);
    const result = await measureRoute(route, { baseUrl: url, key, clients, maxRequests: routeRequests, maxMs, warmup });
    results.push({ route, result, cpu: meter.perRequest(before, await meter.snapshot(), result.count + warmup) });
  }
} finally {
  server.kill('SIGTERM');
  await meter.close();
}

printReport(scale, figures, results);
process.stdout.write(
  `${JSON.stringify({ scale, database: database.url, load: figures, routes: results.map(({ route, result, cpu }) => ({ route: route.route, ...result, cpuUs: cpu })) })}\n`,
);
