/**
 * A fleet of real host processes (two Node, one Bun) on one PostgreSQL database and one limit
 * store, as operators run several instances behind a load balancer: the same ADMIN_TOKEN and
 * SECRET_KEY everywhere, LOG_LEVEL=info so each host writes its JSON access lines and
 * `ratelimit.fail_open` warnings to stdout, which the fleet keeps per host.
 */
import type { LogRecord } from '@catalogue/core';
import { freePort, type Runtime } from '../hosts/process-host.js';
import { type NodeHostProcess, spawnHostProcess } from '../support/node-host-process.js';

export const FLEET_ADMIN_TOKEN = 'fleet-admin-token-0123456789abcdef';
const FLEET_SECRET_KEY = 'ZmxlZXQtc2VjcmV0LWtleS0wMTIzNDU2Nzg5YWJjZGVmMDEyMw==';

export interface FleetHost {
  /** `node-1`, `node-2`, `bun`. */
  readonly name: string;
  readonly runtime: Runtime;
  readonly base: string;
  /** Where the host's stdout is now: records written from here on are `records(mark)`. */
  mark(): number;
  /** The JSON lines of stdout from `since` (a `mark()`), parsed; other lines are skipped. */
  records(since?: number): LogRecord[];
  /**
   * Waits until every line the host wrote for the requests answered so far is in `records`: one
   * more request (GET /healthz) whose own access line, written after theirs, is awaited.
   */
  settle(): Promise<void>;
  /** SIGKILL: no shutdown, nothing flushed. */
  kill(): Promise<void>;
  /** SIGTERM, graceful. */
  stop(): Promise<number | null>;
}

/** What every host of the fleet gets beside its PORT. */
export function fleetEnv(databaseUrl: string, storeEnv: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ADMIN_TOKEN: FLEET_ADMIN_TOKEN,
    SECRET_KEY: FLEET_SECRET_KEY,
    LOG_LEVEL: 'info',
    // Three hosts and the test's own pools on a server other tests share.
    DATABASE_POOL_MAX: '5',
    ...storeEnv,
  };
}

export async function startFleetHost(name: string, runtime: Runtime, env: Record<string, string>): Promise<FleetHost> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const host: NodeHostProcess = await spawnHostProcess(runtime, { ...env, PORT: String(port) }, 90_000);
  if (!host.listening) throw new Error(`${name} exited (${host.exitCode}): ${host.output()}`);
  const records = (since = 0): LogRecord[] => {
    const text = host.stdout();
    const out: LogRecord[] = [];
    for (const line of text.slice(since, text.lastIndexOf('\n') + 1).split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        out.push(JSON.parse(line) as LogRecord);
      } catch {
        // not a log record
      }
    }
    return out;
  };
  return {
    name,
    runtime,
    base,
    mark: () => host.stdout().length,
    records,
    async settle() {
      const probe = await fetch(`${base}/healthz`);
      await probe.arrayBuffer();
      const id = probe.headers.get('x-request-id') as string;
      for (let attempt = 0; attempt < 200 && !host.stdout().includes(id); attempt++) await new Promise((r) => setTimeout(r, 50));
      if (!host.stdout().includes(id)) throw new Error(`${name}: the access line of ${id} never arrived`);
    },
    kill: () => host.kill(),
    stop: () => host.stop(),
  };
}

/** `ratelimit.fail_open` records of every host since its mark, counted by their `error` (`{}`: none). */
export function failOpens(hosts: readonly FleetHost[], marks: readonly number[]): Record<string, number> {
  const out: Record<string, number> = {};
  hosts.forEach((host, i) => {
    for (const record of host.records(marks[i])) {
      if (record.kind !== 'ratelimit.fail_open') continue;
      // By host and error, so a failing row says which host failed open and why.
      const error = `${host.name}: ${String(record.error)}`;
      out[error] = (out[error] ?? 0) + 1;
    }
  });
  return out;
}

export { pollUntil } from '../support/poll-until.js';
