/**
 * WEB_CONCURRENCY (docs/hosts.md "Worker processes", docs/decisions.md §9): the Node host as a
 * real primary and two real workers behind one port, on a real PostgreSQL database and Redis.
 * Which worker answered is read from the access log, whose lines carry the worker's pid; each
 * request opens its own connection, since node:cluster hands out connections, not requests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monthOf } from '@catalogue/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../packages/core/src/billing/tokens.js';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { type NodeHostProcess, spawnNodeHost } from '../support/node-host-process.js';
import { jsonOf } from './answer.js';
import { freePort, send } from './process-host.js';

const ADMIN_TOKEN = 'workers-admin-token-0123456789abcdef';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A counted route that needs no catalogue rows. */
const COUNTED = '/api/v1/dossier/manifest';
const KEY_PATTERN = /ck_test_[0-9A-Za-z]{32}/g;

interface LogLine {
  kind?: string;
  pid?: number;
  worker_pid?: number;
  request_id?: string;
  [field: string]: unknown;
}

const linesOf = (output: string): LogLine[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the Node host with WEB_CONCURRENCY=2 on PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let host: NodeHostProcess;
  let base: string;
  let port: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-workers-'));
  const lines = () => linesOf(host.output());
  const ofKind = (kind: string) => lines().filter((line) => line.kind === kind);

  /** The pids of the workers that answered these requests, from their access-log lines. */
  async function answeredBy(requestIds: string[]): Promise<Set<number>> {
    for (let tries = 0; tries < 100; tries++) {
      const pids = new Map(ofKind('http.access').map((line) => [line.request_id, line.pid]));
      if (requestIds.every((id) => pids.has(id))) return new Set(requestIds.map((id) => pids.get(id) as number));
      await wait(50); // the lines are still on their way through the pipe
    }
    throw new Error('access-log lines missing');
  }

  /** `n` calls, each on a connection of its own: their statuses, and the workers that answered. */
  async function calls(key: string, n: number): Promise<{ statuses: number[]; pids: Set<number> }> {
    const answers = [];
    for (let i = 0; i < n; i++) answers.push(await send(base, { method: 'GET', path: COUNTED, headers: { 'x-api-key': key } }));
    return { statuses: answers.map((a) => a.status), pids: await answeredBy(answers.map((a) => a.headers['x-request-id'] as string)) };
  }

  async function issueKey(email: string): Promise<{ key: string; id: string; customer_id: string }> {
    const body = JSON.stringify({ email });
    const answer = await send(base, {
      method: 'POST',
      path: '/api/v1/admin/keys',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(201);
    return jsonOf(answer) as { key: string; id: string; customer_id: string };
  }

  const workerPids = () => new Set(ofKind('cluster.worker_forked').map((line) => line.worker_pid as number));

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 2 });
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    host = await spawnNodeHost({
      WEB_CONCURRENCY: '2',
      DATABASE_URL: db.url,
      REDIS_URL,
      ADMIN_TOKEN,
      PORT: String(port),
      CATALOGUE_DEMO_KEY: 'true',
      CATALOGUE_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    });
  }, 60_000);

  afterAll(async () => {
    if (host?.exitCode === null) process.kill(host.pid, 'SIGKILL');
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates once, issues and prints the demo key once, and serves from both workers', async () => {
    expect(host.listening).toBe(true);
    expect(host.output().match(/listening on/g)).toHaveLength(1);
    const migrated = ofKind('cluster.migrated');
    expect(migrated).toHaveLength(1);
    expect(migrated[0]?.applied).toEqual(expect.arrayContaining(['0001_extensions']));
    expect(new Set(host.output().match(KEY_PATTERN))).toHaveProperty('size', 1);
    expect(host.output().match(/demo key:/g)).toHaveLength(1);
    const [demo] = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM customers`;
    expect(demo?.n).toBe(1);
    expect(workerPids().size).toBe(2);

    const { key } = await issueKey('both-workers@example.com');
    const { statuses, pids } = await calls(key, 8);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(pids).toEqual(workerPids());
  });

  it('refuses a key revoked through one worker on every worker from the next request', async () => {
    const { key, id, customer_id } = await issueKey('revoked@example.com');
    // Both workers cache the key first (gate/key-cache.ts): the revocation must reach both caches.
    const warm = await calls(key, 6);
    expect(warm.statuses.every((status) => status === 200)).toBe(true);
    expect(warm.pids.size).toBe(2);

    const token = `workers-session-${Date.now()}`;
    await db.sql`INSERT INTO sessions (hash, customer_id, created_at, expires_at) VALUES (${tokenHash(token)}, ${customer_id}, now(), now() + interval '1 hour')`;
    const revoked = await send(base, {
      method: 'DELETE',
      path: `/api/dashboard/keys/${id}`,
      headers: { cookie: `catalogue_session=${token}`, origin: `http://localhost:${port}` },
    });
    expect(revoked.status).toBe(204);

    const after = await calls(key, 8);
    expect(after.statuses).toEqual(Array(8).fill(401));
    expect(after.pids.size).toBe(2);
  });

  it('replaces a worker killed with SIGKILL, and the service answers from the new one', async () => {
    const [killed] = [...workerPids()];
    process.kill(killed as number, 'SIGKILL');
    for (let tries = 0; tries < 300 && ofKind('cluster.worker_listening').length === 0; tries++) await wait(100);
    const died = ofKind('cluster.worker_died');
    expect(died).toMatchObject([{ worker_pid: killed, signal: 'SIGKILL' }]);
    const [replacement] = ofKind('cluster.worker_listening');
    expect(replacement?.worker_pid).not.toBe(killed);

    const { key } = await issueKey('after-restart@example.com');
    const { statuses, pids } = await calls(key, 8);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(pids.has(replacement?.worker_pid as number)).toBe(true);
    expect(pids.has(killed as number)).toBe(false);
  }, 40_000);

  it('on SIGTERM closes every worker, exits 0, and every call it counted is in PostgreSQL', async () => {
    const { key, customer_id } = await issueKey('durable@example.com');
    const made = await calls(key, 12);
    expect(made.statuses.every((status) => status === 200)).toBe(true);
    expect(made.pids.size).toBe(2);

    expect(await host.stop()).toBe(0);
    const stopped = ofKind('server.stopped');
    // Both workers closed gracefully (their pids), then the primary, which saw them all exit 0.
    expect(new Set(stopped.filter((line) => line.role !== 'primary').map((line) => line.pid))).toEqual(made.pids);
    expect(stopped.at(-1)).toMatchObject({ role: 'primary', workers_clean: true });
    const [usage] = await db.sql<Array<{ calls: number }>>`
      SELECT count::int AS calls FROM usage_months WHERE customer_id = ${customer_id} AND month = ${monthOf(Date.now())}`;
    expect(usage?.calls).toBe(12);
  }, 60_000);
});

describe('WEB_CONCURRENCY refused at start', () => {
  async function refusal(env: Record<string, string>): Promise<string> {
    const host = await spawnNodeHost({ PORT: String(await freePort()), LOG_LEVEL: 'info', ...env });
    expect(host.listening).toBe(false);
    expect(await host.stop()).toBe(1);
    return host.output();
  }

  it('without DATABASE_URL (the embedded PGlite default), and for a value that is not a count', async () => {
    const [embedded, invalid] = await Promise.all([
      refusal({ WEB_CONCURRENCY: '2', CATALOGUE_DATA_DIR: join(tmpdir(), 'catalogue-workers-never-written') }),
      refusal({ WEB_CONCURRENCY: 'lots', CATALOGUE_STORAGE: 'memory' }),
    ]);
    expect(embedded).toContain('WEB_CONCURRENCY=2 needs DATABASE_URL');
    expect(invalid).toContain('WEB_CONCURRENCY must be auto or a whole number of worker processes from 1 to 64, got "lots"');
  });

  it('when a worker cannot listen (the port is taken): exit 1, and no demo customer written', async () => {
    const db = await createPostgresDatabase({ max: 1 });
    const port = await freePort();
    const taken: Server = await new Promise((resolve) => {
      const server = createServer().listen(port, '0.0.0.0', () => resolve(server));
    });
    try {
      const output = await refusal({
        WEB_CONCURRENCY: '2',
        DATABASE_URL: db.url,
        PORT: String(port),
        CATALOGUE_DEMO_KEY: 'true',
        CATALOGUE_DATA_DIR: join(tmpdir(), 'catalogue-workers-busy'),
      });
      expect(output).toMatch(/EADDRINUSE/);
      expect(output).toMatch(/exited \(code 1\) before it listened: the start failed/);
      expect(output).not.toMatch(KEY_PATTERN);
      const [customers] = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM customers`;
      expect(customers?.n).toBe(0);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await db.drop();
    }
  });
});
