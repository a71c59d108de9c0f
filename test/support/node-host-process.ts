/**
 * The Node host (`npm start`'s entry) — or the Bun or Deno host, by the same commands — as a
 * real process on the environment a test gives, for tests of what an operator sees: start-up,
 * shutdown on SIGTERM, a kill -9, what it prints and writes.
 */
import { spawn } from 'node:child_process';
import { commandFor, ROOT, type Runtime } from '../hosts/process-host.js';

export interface NodeHostProcess {
  pid: number;
  /** Whether it reached "listening on" (false: it exited first, see `exitCode`). */
  listening: boolean;
  exitCode: number | null;
  /** stdout and stderr as they arrived. */
  output(): string;
  /** stdout alone: whole lines (the JSON log), never cut by a write to stderr. */
  stdout(): string;
  /** SIGTERM (if still running), and the exit code once it has shut down. */
  stop(): Promise<number | null>;
  /** SIGKILL (if still running): no shutdown of any kind; resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Variables of the test runner's own environment a host must not pick up unasked. */
const CLEARED = [
  'BASE_URL',
  'DATABASE_URL',
  'REDIS_URL',
  'UPSTASH_REDIS_REST_URL',
  'UPSTASH_REDIS_REST_TOKEN',
  'CATALOGUE_STORAGE',
  'STRIPE_SECRET_KEY',
  'MAIL_TRANSPORT',
  'WEB_CONCURRENCY',
];

export function spawnNodeHost(env: Record<string, string>, startMs = 60_000): Promise<NodeHostProcess> {
  return spawnHostProcess('node', env, startMs);
}

export async function spawnHostProcess(runtime: Runtime, env: Record<string, string>, startMs = 60_000): Promise<NodeHostProcess> {
  const full: Record<string, string | undefined> = { ...process.env };
  for (const name of CLEARED) delete full[name];
  Object.assign(full, { LOG_LEVEL: 'warn', NO_COLOR: '1' }, env);
  const [command, args] = commandFor(runtime);
  const child = spawn(command, args, { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stdout = '';
  child.stdout?.on('data', (d) => {
    out += d;
    stdout += d;
  });
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  for (let polls = 0; !out.includes('listening on') && child.exitCode === null && polls < startMs / 100; polls++) await new Promise((r) => setTimeout(r, 100));
  const listening = out.includes('listening on');
  if (!listening && child.exitCode === null) {
    child.kill('SIGKILL');
    throw new Error(`the ${runtime} host did not start: ${out}`);
  }
  return {
    pid: child.pid as number,
    listening,
    get exitCode() {
      return child.exitCode;
    },
    output: () => out,
    stdout: () => stdout,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
