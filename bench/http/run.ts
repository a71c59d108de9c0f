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
 * Goals: the Node host ≥ 0.6× bare node:http with the access log off, ≥ 0.55× with it on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { FIXTURE_ADMIN_TOKEN } from '../../test/hosts/fixture.js';
import { commandFor, freePort, ROOT, type RunningHost, type Runtime, send, startHost } from '../../test/hosts/process-host.js';
import { demoMaster } from '../../test/hosts/setup.js';
import { resultFile } from '../result-file.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const RUNTIMES = (process.env.BENCH_RUNTIMES ?? 'node,bun,deno').split(',') as Runtime[];
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

async function main(): Promise<void> {
  const masterId = demoMaster();
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const rows: Array<{ runtime: Runtime; logOn: number; logOff: number; bare: number; bridge?: number }> = [];
  const path = `/api/v1/masters/${masterId}`;
  try {
    for (const runtime of RUNTIMES) {
      commandFor(runtime);
      const on = await hostTarget(runtime, 'info', path);
      let bodyFile: string;
      let logOn: number;
      try {
        bodyFile = join(dir, `${runtime}.json`);
        writeFileSync(bodyFile, on.body);
        logOn = await measure(`${on.host.baseUrl}${path}`, { 'x-api-key': on.key });
      } finally {
        await on.host.stop();
      }
      const bare = await startBare(runtime, bodyFile);
      let bareRps: number;
      try {
        bareRps = await measure(`${bare.url}${path}`, {});
      } finally {
        bare.stop();
      }
      const off = await hostTarget(runtime, 'warn', path);
      let logOff: number;
      try {
        logOff = await measure(`${off.host.baseUrl}${path}`, { 'x-api-key': off.key });
      } finally {
        await off.host.stop();
      }
      const row: (typeof rows)[number] = { runtime, logOn: Math.round(logOn), logOff: Math.round(logOff), bare: Math.round(bareRps) };
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = (host: number, bare: number) => Number((host / bare).toFixed(2));
  const table = resultFile('http');
  table.log(`GET /api/v1/masters/{id}, authenticated, memory ports — ${CONNECTIONS} connections, ${SECONDS}s per target`);
  table.log('| runtime | host, access log on | host, access log off | bare req/s | on / bare | off / bare |');
  table.log('|---|---|---|---|---|---|');
  for (const r of rows) table.log(`| ${r.runtime} | ${r.logOn} | ${r.logOff} | ${r.bare} | ${ratio(r.logOn, r.bare)} | ${ratio(r.logOff, r.bare)} |`);
  for (const r of rows) {
    if (r.bridge !== undefined)
      table.log(`\nnode host bridge alone (constant handler): ${r.bridge} req/s = ${(r.bridge / r.bare).toFixed(2)}× bare; the service itself is the rest.`);
  }
  const node = rows.find((r) => r.runtime === 'node');
  if (node) {
    const on = ratio(node.logOn, node.bare);
    const off = ratio(node.logOff, node.bare);
    table.log(
      `\nNode goals: access log on ≥ 0.55× bare node:http ${on >= 0.55 ? 'met' : 'NOT met'} (${on}); off ≥ 0.6× ${off >= 0.6 ? 'met' : 'NOT met'} (${off})`,
    );
  }
  table.save();
}

/** A host at `logLevel` (info: the access log on; warn: off) with a contract key, and the body of `path` it answers. */
async function hostTarget(runtime: Runtime, logLevel: 'info' | 'warn', path: string): Promise<{ host: RunningHost; key: string; body: Uint8Array }> {
  const host = await startHost(runtime, { LOG_LEVEL: logLevel });
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
