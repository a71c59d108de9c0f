/**
 * No access line is lost at SIGTERM or a fatal error (issue 31): the Node and Bun hosts buffer their JSON lines
 * (host-kit's bufferedLogger), so a graceful stop must write every line still buffered before the
 * process exits. Each host runs as a real process whose stdout the test stops reading during a
 * burst of requests: the pipe fills, the host's lines wait in its own buffer, and SIGTERM comes
 * while they do. Once the test reads again, every answered request's line must be there, before
 * `server.stopped`, and the exit code 0. The same holds when a process that logged dies of an
 * uncaught exception (log-then-crash.ts): its exit writes what is buffered.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN } from './fixture.js';
import { commandFor, freePort, ROOT, type Runtime } from './process-host.js';

/** Enough lines (about 230 bytes each) to fill the pipe's buffer several times over. */
const REQUESTS = 3_000;
const PARALLEL = 16;

interface Host {
  child: ChildProcess;
  base: string;
  stdout(): string;
  exited: Promise<number | null>;
  dataDir: string;
}

async function startHost(runtime: Runtime): Promise<Host> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `catalogue-log-${runtime}-`));
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), CATALOGUE_STORAGE: 'memory', CATALOGUE_DATA_DIR: dataDir };
  for (const name of ['BASE_URL', 'DATABASE_URL', 'REDIS_URL', 'UPSTASH_REDIS_REST_URL', 'WEB_CONCURRENCY', 'STRIPE_SECRET_KEY', 'MAIL_TRANSPORT'])
    delete env[name];
  Object.assign(env, { ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN, LOG_LEVEL: 'info', NO_COLOR: '1' });
  const [command, args] = commandFor(runtime);
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  // 'close': the process exited and its stdout was read to the end.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  for (let polls = 0; !stdout.includes('listening on'); polls++) {
    if (child.exitCode !== null || polls > 600) throw new Error(`${runtime} host did not start: ${stdout}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base: `http://127.0.0.1:${port}`, stdout: () => stdout, exited, dataDir };
}

/** The request ids of `n` answered GET /healthz, `parallel` at a time. */
async function burst(base: string, n: number, parallel: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        next++;
        const response = await fetch(`${base}/healthz`);
        await response.arrayBuffer();
        ids.push(response.headers.get('x-request-id') as string);
      }
    }),
  );
  return ids;
}

function accessIds(stdout: string): { ids: Set<string>; stoppedAfterLast: boolean } {
  const ids = new Set<string>();
  let lastAccess = -1;
  let stopped = -1;
  stdout.split('\n').forEach((line, index) => {
    if (!line.startsWith('{')) return;
    const record = JSON.parse(line) as { kind: string; request_id?: string };
    if (record.kind === 'http.access') {
      ids.add(record.request_id as string);
      lastAccess = index;
    }
    if (record.kind === 'server.stopped') stopped = index;
  });
  return { ids, stoppedAfterLast: stopped > lastAccess };
}

describe.each(['node', 'bun'] as const)('the %s host at SIGTERM', (runtime) => {
  it('writes the access line of every answered request, none left in its buffer', async () => {
    const host = await startHost(runtime);
    try {
      // The reader stops: the pipe fills within the burst and the rest waits in the host.
      host.child.stdout?.pause();
      const answered = await burst(host.base, REQUESTS, PARALLEL);
      host.child.kill('SIGTERM');
      // Reading again only once the host is stopping: its lines are still buffered then.
      await new Promise((r) => setTimeout(r, 300));
      host.child.stdout?.resume();
      expect(await host.exited).toBe(0);
      const { ids, stoppedAfterLast } = accessIds(host.stdout());
      expect(answered).toHaveLength(REQUESTS);
      expect(answered.filter((id) => !ids.has(id))).toEqual([]);
      expect(stoppedAfterLast).toBe(true);
    } finally {
      if (host.child.exitCode === null) host.child.kill('SIGKILL');
      rmSync(host.dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.each(['node', 'bun'] as const)('a %s process that logged and dies of an uncaught exception', (runtime) => {
  it('writes every line it logged, its reader behind when it dies', async () => {
    const lines = 3_000;
    const [command, args] = runtime === 'node' ? [process.execPath, ['--conditions=catalogue-source', '--import', 'tsx']] : commandFor('bun');
    const script = join(ROOT, 'test/hosts/log-then-crash.ts');
    const child = spawn(command, [...args.filter((arg) => !arg.endsWith('main.ts')), script], {
      cwd: ROOT,
      env: { ...process.env, LINES: String(lines) },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    // Not reading yet: the pipe fills and the rest is still buffered when the exception comes.
    child.stdout?.pause();
    await new Promise((r) => setTimeout(r, 1_000));
    child.stdout?.resume();
    expect(await closed).not.toBe(0);
    const ids = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { request_id: string }).request_id);
    expect(ids).toEqual(Array.from({ length: lines }, (_, i) => `line-${i}`));
  }, 60_000);
});
