/**
 * `npm start` on the embedded default as a real process (no DATABASE_URL: the PGlite data dir
 * under CATALOGUE_DATA_DIR), for the tests that restart it or share its data dir with the CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/** The environment of a process on the embedded default: no database, no admin token, no storage override. */
export function embeddedEnvironment(dataDir: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, CATALOGUE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.ADMIN_TOKEN;
  // Vitest sets BASE_URL=/ in its own environment: not a public origin (a host refuses it at start).
  delete env.BASE_URL;
  delete env.CATALOGUE_STORAGE;
  return env;
}

/** Starts the Node host on `dataDir` and resolves once it listens (its output so far is kept). */
export async function startEmbeddedHost(dataDir: string, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', 'hosts/node/src/main.ts'], {
    cwd: ROOT,
    env: embeddedEnvironment(dataDir, { PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  for (let polls = 0; !out.includes('listening on'); polls++) {
    if (child.exitCode !== null) throw new Error(`host exited: ${out}`);
    if (polls > 600) throw new Error(`host did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => out };
}

/** SIGTERM, then the exit code (a graceful shutdown exits 0). */
export function stopHost(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
