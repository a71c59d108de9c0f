/**
 * A host started as a real process on a free port, on the in-memory demo
 * (CATALOGUE_STORAGE=memory) with the fixture's ADMIN_TOKEN, and a raw HTTP client for it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answer } from './answer.js';
import { FIXTURE_ADMIN_TOKEN, type FixtureRequest } from './fixture.js';

export const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules/.bin');

export type Runtime = 'node' | 'bun' | 'deno';

/** How each runtime starts its host: the same commands as the npm start scripts. */
export function commandFor(runtime: Runtime): [string, string[]] {
  switch (runtime) {
    case 'node':
      return [process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', 'hosts/node/src/main.ts']];
    case 'bun':
      return [join(BIN, 'bun'), ['--conditions=catalogue-source', 'hosts/bun/src/main.ts']];
    case 'deno':
      return [join(BIN, 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-write', '--allow-sys', 'hosts/deno/src/main.ts']];
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningHost {
  baseUrl: string;
  output(): string;
  stop(): Promise<number | null>;
}

/** `root`: the checkout whose host runs (default this one; a bench's BENCH_BASELINE_ROOT, with its own npm ci). */
export async function startHost(runtime: Runtime, extraEnv: Record<string, string> = {}, root = ROOT): Promise<RunningHost> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `catalogue-${runtime}-`));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    CATALOGUE_STORAGE: 'memory',
    CATALOGUE_DATA_DIR: dataDir,
    ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    NO_COLOR: '1',
    ...extraEnv,
  };
  // Vitest sets BASE_URL=/ in its own environment; hosts must not take it for the public origin.
  for (const name of [
    'BASE_URL',
    'DATABASE_URL',
    'REDIS_URL',
    'UPSTASH_REDIS_REST_URL',
    'UPSTASH_REDIS_REST_TOKEN',
    'STRIPE_SECRET_KEY',
    'MAIL_TRANSPORT',
    'WEB_CONCURRENCY',
  ])
    delete env[name];
  const [command, args] = commandFor(runtime);
  const child: ChildProcess = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  for (let polls = 0; !out.includes('listening on'); polls++) {
    if (child.exitCode !== null) throw new Error(`${runtime} host exited (${child.exitCode}): ${out}`);
    if (polls > 1_100) {
      child.kill('SIGKILL');
      throw new Error(`${runtime} host did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => out,
    stop: async () => {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000))]);
      if (code === 'timeout') child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      return code === 'timeout' ? null : code;
    },
  };
}

/**
 * One request over node:http (not fetch: it may send a body the server refuses early, and it
 * shows HEAD and 204 answers byte for byte). A write error after the answer arrived is expected.
 */
export function send(baseUrl: string, req: FixtureRequest): Promise<Answer> {
  const body = typeof req.body === 'string' ? Buffer.from(req.body) : req.body ? Buffer.from(req.body) : null;
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = httpRequest(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: { ...req.headers, ...(body ? { 'content-length': String(body.byteLength) } : {}) },
      agent: false,
    });
    outgoing.on('response', (incoming) => {
      answered = true;
      const chunks: Buffer[] = [];
      incoming.on('data', (c: Buffer) => chunks.push(c));
      incoming.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: incoming.statusCode ?? 0, headers, body: new Uint8Array(Buffer.concat(chunks)) });
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    outgoing.end(body ?? undefined);
  });
}
