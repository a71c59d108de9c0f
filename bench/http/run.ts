/**
 * `npm run bench:http`: requests per second of an authenticated GET /api/v1/masters/{id}
 * (memory ports) on the Node, Bun and Deno hosts, each against a bare server of the same
 * runtime answering the same JSON, in the same run, with autocannon. Loopback only; every
 * run is bounded by BENCH_SECONDS (default 8) per target.
 *
 * Each host is measured twice (issue 31): with its access log on (LOG_LEVEL=info, the
 * default: one JSON line per request on stdout, which this process reads as a log shipper
 * would) and off (LOG_LEVEL=warn), in the order on, bare, off.
 *
 * BENCH_BASELINE_ROOT=<another checkout, its npm ci done> adds "base": that checkout's host,
 * measured right after this one's with the same log setting, so a change to core's request path
 * is measured against the previous main in one run (issue 38). BENCH_ROUNDS (default 1) repeats
 * the whole sequence; the table shows medians of the rounds, the ratios round by round.
 *
 * Goals: the Node host ≥ 0.6× bare node:http with the access log off, ≥ 0.55× with it on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { FIXTURE_ADMIN_TOKEN } from '../../test/hosts/fixture.js';
import { commandFor, freePort, ROOT, type RunningHost, type Runtime, send, startHost } from '../../test/hosts/process-host.js';
import { demoMaster } from '../../test/hosts/setup.js';
import { resultFile } from '../result-file.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const RUNTIMES = (process.env.BENCH_RUNTIMES ?? 'node,bun,deno').split(',') as Runtime[];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const BASELINE_ROOT = process.env.BENCH_BASELINE_ROOT ? resolve(process.env.BENCH_BASELINE_ROOT) : null;
const BIN = join(ROOT, 'node_modules/.bin');

function bareCommand(runtime: Runtime | 'node-bridge'): [string, string[]] {
  if (runtime === 'node-bridge') return [process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', join(ROOT, 'bench/http/bridge-node.ts')]];
  const file = join(ROOT, `bench/http/bare-${runtime}.mjs`);
  if (runtime === 'node') return [process.execPath, [file]];
  if (runtime === 'bun') return [join(BIN, 'bun'), [file]];
  return [join(BIN, 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', file]];
}

async function startBare(runtime: Runtime | 'node-bridge', bodyFile: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const [command, args] = bareCommand(runtime);
  const child: ChildProcess = spawn(command, args, {
    env: { ...process.env, PORT: String(port), BENCH_BODY_FILE: bodyFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`bare ${runtime} exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function measure(url: string, headers: Record<string, string>): Promise<number> {
  // A short warm-up (JIT, connection pool), then the measured run.
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

interface Row {
  runtime: Runtime;
  logOn: number;
  logOff: number;
  bare: number;
  bridge?: number;
  baseOn?: number;
  baseOff?: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

/** Starts the host of `root` at `logLevel`, measures `path` with a key of its own, stops it. */
async function measureHost(runtime: Runtime, logLevel: 'info' | 'warn', path: string, root = ROOT): Promise<{ rps: number; body: Uint8Array }> {
  const target = await hostTarget(runtime, logLevel, path, root);
  try {
    return { rps: await measure(`${target.host.baseUrl}${path}`, { 'x-api-key': target.key }), body: target.body };
  } finally {
    await target.host.stop();
  }
}

async function main(): Promise<void> {
  const table = resultFile('http');
  const masterId = demoMaster();
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const rounds: Row[][] = [];
  const path = `/api/v1/masters/${masterId}`;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const rows: Row[] = [];
      for (const runtime of RUNTIMES) {
        commandFor(runtime);
        // In this order: this host with its log on, the baseline's; bare; this host with its log off, the baseline's.
        const on = await measureHost(runtime, 'info', path);
        const baseOn = BASELINE_ROOT ? await measureHost(runtime, 'info', path, BASELINE_ROOT) : null;
        const bodyFile = join(dir, `${runtime}.json`);
        writeFileSync(bodyFile, on.body);
        const bare = await startBare(runtime, bodyFile);
        let bareRps: number;
        try {
          bareRps = await measure(`${bare.url}${path}`, {});
        } finally {
          bare.stop();
        }
        const off = await measureHost(runtime, 'warn', path);
        const baseOff = BASELINE_ROOT ? await measureHost(runtime, 'warn', path, BASELINE_ROOT) : null;
        const row: Row = { runtime, logOn: Math.round(on.rps), logOff: Math.round(off.rps), bare: Math.round(bareRps) };
        if (baseOn && baseOff) {
          row.baseOn = Math.round(baseOn.rps);
          row.baseOff = Math.round(baseOff.rps);
        }
        if (runtime === 'node') {
          const bridge = await startBare('node-bridge', bodyFile);
          try {
            row.bridge = Math.round(await measure(`${bridge.url}${path}`, {}));
          } finally {
            bridge.stop();
          }
        }
        rows.push(row);
      }
      rounds.push(rows);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const of = (runtime: Runtime, pick: (row: Row) => number | undefined) => rounds.map((rows) => pick(rows.find((r) => r.runtime === runtime) as Row) as number);
  const ratio = (runtime: Runtime, a: (row: Row) => number | undefined, b: (row: Row) => number | undefined) => {
    const tops = of(runtime, a);
    const bottoms = of(runtime, b);
    return Number(median(tops.map((top, i) => top / (bottoms[i] as number))).toFixed(2));
  };
  table.log(
    `GET /api/v1/masters/{id}, authenticated, memory ports — ${CONNECTIONS} connections, ${SECONDS}s per target, ${ROUNDS} round(s): medians of rounds, ratios round by round`,
  );
  if (BASELINE_ROOT) table.log(`base: the host of ${BASELINE_ROOT}, measured right after this one's with the same log setting`);
  table.log(
    '| runtime | host, access log on | host, access log off | bare req/s | on / bare | off / bare |' +
      (BASELINE_ROOT ? ' base, log on | base, log off | base on / bare | on / base on | off / base off |' : ''),
  );
  table.log(`|---|---|---|---|---|---|${BASELINE_ROOT ? '---|---|---|---|---|' : ''}`);
  for (const runtime of RUNTIMES) {
    const cells = [
      median(of(runtime, (r) => r.logOn)),
      median(of(runtime, (r) => r.logOff)),
      median(of(runtime, (r) => r.bare)),
      ratio(
        runtime,
        (r) => r.logOn,
        (r) => r.bare,
      ),
      ratio(
        runtime,
        (r) => r.logOff,
        (r) => r.bare,
      ),
    ];
    if (BASELINE_ROOT)
      cells.push(
        median(of(runtime, (r) => r.baseOn)),
        median(of(runtime, (r) => r.baseOff)),
        ratio(
          runtime,
          (r) => r.baseOn,
          (r) => r.bare,
        ),
        ratio(
          runtime,
          (r) => r.logOn,
          (r) => r.baseOn,
        ),
        ratio(
          runtime,
          (r) => r.logOff,
          (r) => r.baseOff,
        ),
      );
    table.log(`| ${runtime} | ${cells.join(' | ')} |`);
  }
  if (ROUNDS > 1) {
    for (const runtime of RUNTIMES) {
      const rows = rounds.map((rs) => rs.find((r) => r.runtime === runtime) as Row);
      table.log(`\n${runtime}, round by round (on / off / bare${BASELINE_ROOT ? ' / base on / base off' : ''}):`);
      for (const r of rows) table.log(`  ${r.logOn} / ${r.logOff} / ${r.bare}${BASELINE_ROOT ? ` / ${r.baseOn} / ${r.baseOff}` : ''}`);
    }
  }
  if (RUNTIMES.includes('node')) {
    const bridge = median(of('node', (r) => r.bridge));
    table.log(
      `\nnode host bridge alone (constant handler): ${bridge} req/s = ${ratio(
        'node',
        (r) => r.bridge,
        (r) => r.bare,
      ).toFixed(2)}× bare; the service itself is the rest.`,
    );
    const on = ratio(
      'node',
      (r) => r.logOn,
      (r) => r.bare,
    );
    const off = ratio(
      'node',
      (r) => r.logOff,
      (r) => r.bare,
    );
    table.log(
      `\nNode goals: access log on ≥ 0.55× bare node:http ${on >= 0.55 ? 'met' : 'NOT met'} (${on}); off ≥ 0.6× ${off >= 0.6 ? 'met' : 'NOT met'} (${off})`,
    );
  }
  table.save();
}

/** A host at `logLevel` (info: the access log on; warn: off) with a contract key, and the body of `path` it answers. */
async function hostTarget(
  runtime: Runtime,
  logLevel: 'info' | 'warn',
  path: string,
  root = ROOT,
): Promise<{ host: RunningHost; key: string; body: Uint8Array }> {
  const host = await startHost(runtime, { LOG_LEVEL: logLevel }, root);
  try {
    const issued = await send(host.baseUrl, {
      method: 'POST',
      path: '/api/v1/admin/keys',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${FIXTURE_ADMIN_TOKEN}` },
      // Contract limits far above what the run can send: the bench measures serving, not refusing.
      body: JSON.stringify({ email: 'bench@example.com', limits: { quota_per_month: 1_000_000_000, burst_per_minute: 1_000_000, concurrency: 1000 } }),
    });
    const key = (JSON.parse(new TextDecoder().decode(issued.body)) as { key: string }).key;
    const sample = await send(host.baseUrl, { method: 'GET', path, headers: { 'x-api-key': key } });
    if (sample.status !== 200) throw new Error(`${runtime} host answered ${sample.status}`);
    return { host, key, body: sample.body };
  } catch (error) {
    await host.stop();
    throw error;
  }
}

await main();
