/**
 * PostgreSQL clusters of a test's own: a primary made with initdb that allows streaming
 * replication, and replicas made from it with `pg_basebackup -R`, each a postmaster on a spare
 * port in a temporary directory. The shared server on :5432 does not accept replication
 * connections, so replica tests make their own (initdb refuses root: everything runs as the
 * `postgres` OS user). Stopped by the postmaster's own PID, and removed afterwards.
 */
import { execFile, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort as sparePort } from '../hosts/process-host.js';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

export interface PgCluster {
  port: number;
  /** The running postmaster's PID (null when stopped). */
  pid(): number | null;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  dataDir: string;
  /** Starts the postmaster (again) and waits until it accepts connections. */
  start(): Promise<void>;
  /** `fast` (SIGINT, a clean shutdown) or `kill` (SIGKILL, as a crashed host). */
  stop(mode?: 'fast' | 'kill'): Promise<void>;
}

function asPostgres(command: string, args: string[]) {
  return run('runuser', ['-u', 'postgres', '--', join(BIN, command), ...args], { maxBuffer: 16 * 1024 * 1024 });
}

async function waitReady(port: number, dataDir: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await run(join(BIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`postmaster on ${port} (${dataDir}) did not become ready`);
}

function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function cluster(dataDir: string, port: number, settings: string[]): PgCluster {
  return {
    port,
    dataDir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    pid: () => postmasterPid(dataDir),
    async start() {
      const args = ['-u', 'postgres', '--', join(BIN, 'postgres'), '-D', dataDir, '-p', String(port), '-k', dataDir];
      for (const setting of settings) args.push('-c', setting);
      const child = spawn('runuser', args, { stdio: 'ignore', detached: true });
      child.unref();
      await waitReady(port, dataDir);
    },
    async stop(mode = 'fast') {
      const pid = postmasterPid(dataDir);
      if (pid === null || !alive(pid)) return;
      process.kill(pid, mode === 'kill' ? 'SIGKILL' : 'SIGINT');
      for (let attempt = 0; attempt < 400 && alive(pid); attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
      if (mode === 'kill') {
        // The backends of a killed postmaster notice and exit by themselves; wait until the port is free.
        for (let attempt = 0; attempt < 200; attempt++) {
          try {
            await run(join(BIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']);
            await new Promise((resolve) => setTimeout(resolve, 25));
          } catch {
            break;
          }
        }
      }
    },
  };
}

/** A scratch directory the postgres OS user owns. */
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chownSync(dir, Number(process.env.PG_UID ?? postgresUid()), Number(process.env.PG_GID ?? postgresGid()));
  return dir;
}

function passwdEntry(): string[] {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('no postgres OS user');
  return line.split(':');
}
const postgresUid = () => Number(passwdEntry()[2]);
const postgresGid = () => Number(passwdEntry()[3]);

/** Speed over durability: these clusters live for one test file. */
const SCRATCH_SETTINGS = ['fsync=off', 'full_page_writes=off', 'listen_addresses=127.0.0.1', 'shared_preload_libraries=pg_stat_statements'];

export async function startPrimary(): Promise<PgCluster & { remove(): void }> {
  const root = scratch('catalogue-primary-');
  const dataDir = join(root, 'data');
  await asPostgres('initdb', ['-D', dataDir, '--auth=trust', '--username=postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await sparePort();
  const primary = cluster(dataDir, port, [...SCRATCH_SETTINGS, 'wal_level=replica', 'max_wal_senders=10', 'max_replication_slots=10']);
  await primary.start();
  return { ...primary, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface ReplicaOptions {
  /** recovery_min_apply_delay: a replica that applies what it receives this much later (a lagging replica). */
  applyDelayMs?: number;
}

export async function startReplica(primary: PgCluster, options: ReplicaOptions = {}): Promise<PgCluster & { remove(): void }> {
  const root = scratch('catalogue-replica-');
  const dataDir = join(root, 'data');
  await asPostgres('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    dataDir,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  const port = await sparePort();
  const settings = [...SCRATCH_SETTINGS, 'hot_standby=on'];
  if (options.applyDelayMs) settings.push(`recovery_min_apply_delay=${options.applyDelayMs}ms`);
  const replica = cluster(dataDir, port, settings);
  await replica.start();
  return { ...replica, remove: () => rmSync(root, { recursive: true, force: true }) };
}
