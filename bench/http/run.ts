/**
 * `npm run bench:http`: requests per second of an authenticated GET /api/v1/masters/{id}
 * (memory ports) on the Node, Bun and Deno hosts, each against a bare server of the same
 * runtime answering the same JSON, in the same run, with autocannon. Loopback only; every
 * run is bounded by BENCH_SECONDS (default 8) per target.
 *
 * Goal: the Node host ≥ 0.6× bare node:http.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { FIXTURE_ADMIN_TOKEN } from '../../test/hosts/fixture.js';
import { commandFor, freePort, ROOT, type Runtime, send, startHost } from '../../test/hosts/process-host.js';
import { demoMaster } from '../../test/hosts/setup.js';

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
  const rows: Array<{ runtime: Runtime; host: number; bare: number; ratio: number; bridge?: number }> = [];
  try {
    for (const runtime of RUNTIMES) {
      commandFor(runtime);
      const host = await startHost(runtime, { LOG_LEVEL: 'error' });
      try {
        const issued = await send(host.baseUrl, {
          method: 'POST',
          path: '/api/v1/admin/keys',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${FIXTURE_ADMIN_TOKEN}` },
          // Contract limits far above what the run can send: the bench measures serving, not refusing.
          body: JSON.stringify({ email: 'bench@example.com', limits: { quota_per_month: 1_000_000_000, burst_per_minute: 1_000_000, concurrency: 1000 } }),
        });
        const key = (JSON.parse(new TextDecoder().decode(issued.body)) as { key: string }).key;
        const path = `/api/v1/masters/${masterId}`;
        const sample = await send(host.baseUrl, { method: 'GET', path, headers: { 'x-api-key': key } });
        if (sample.status !== 200) throw new Error(`${runtime} host answered ${sample.status}`);
        const bodyFile = join(dir, `${runtime}.json`);
        writeFileSync(bodyFile, sample.body);

        const hostRps = await measure(`${host.baseUrl}${path}`, { 'x-api-key': key });
        const bare = await startBare(runtime, bodyFile);
        let bareRps: number;
        try {
          bareRps = await measure(`${bare.url}${path}`, {});
        } finally {
          bare.stop();
        }
        const row: (typeof rows)[number] = { runtime, host: Math.round(hostRps), bare: Math.round(bareRps), ratio: Number((hostRps / bareRps).toFixed(2)) };
        if (runtime === 'node') {
          const bridge = await startBare('node-bridge', bodyFile);
          try {
            row.bridge = Math.round(await measure(`${bridge.url}${path}`, {}));
          } finally {
            bridge.stop();
          }
        }
        rows.push(row);
      } finally {
        await host.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nGET /api/v1/masters/{id}, authenticated, memory ports — ${CONNECTIONS} connections, ${SECONDS}s per target\n`);
  console.log('| runtime | host req/s | bare req/s | host / bare |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.runtime} | ${r.host} | ${r.bare} | ${r.ratio} |`);
  for (const r of rows) {
    if (r.bridge !== undefined)
      console.log(`\nnode host bridge alone (constant handler): ${r.bridge} req/s = ${(r.bridge / r.bare).toFixed(2)}× bare; the service itself is the rest.`);
  }
  const node = rows.find((r) => r.runtime === 'node');
  if (node) console.log(`\nNode goal (≥ 0.6× bare node:http): ${node.ratio >= 0.6 ? 'met' : 'NOT met'} (${node.ratio})`);
}

await main();
