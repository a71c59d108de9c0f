/**
 * A client that leaves mid-request on the Node host over PostgreSQL: the request's next query is
 * never started (docs/decisions.md §8). The catalogue asks the request's lifetime whether it
 * ended (core's `aborted`, answered by the host's CLIENT_GONE probe) instead of making an
 * AbortSignal per request (issue 14), so this is what proves the probe reaches the database
 * path. The master dossier reads `masters`, then `releases`: both are held behind locks, and
 * pg_stat_activity shows whether the second query was ever sent.
 */
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import type { ReservedSql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { issueKeyOverHttp } from '../support/admin-keys.js';
import { fixtureData } from '../support/fixture-data.js';
import { openSocket } from '../support/raw-socket.js';

const ADMIN_TOKEN = 'client-gone-admin-token-0123456789';
let db: TestDatabase;
let hosted: HostedService;
let running: RunningServer;
let key: string;

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 4 });
  await loadCatalogue(db, fixtureData());
  hosted = await createServiceFromEnv({ DATABASE_URL: db.url, ADMIN_TOKEN, LOG_LEVEL: 'error' });
  running = await listen(createNodeServer(hosted.service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
  key = await issueKeyOverHttp(running.url, ADMIN_TOKEN, { email: 'gone@example.com' });
}, 60_000);

afterAll(async () => {
  await running?.close();
  await hosted?.close();
  await db?.drop();
});

/** A transaction holding an ACCESS EXCLUSIVE lock on `table` until released. */
async function lock(table: string): Promise<ReservedSql> {
  const held = await db.sql.reserve();
  await held`BEGIN`;
  await held.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return held;
}

async function unlock(held: ReservedSql): Promise<void> {
  await held`COMMIT`;
  held.release();
}

/** Queries of this database waiting for a lock whose text names `table`. */
async function waitingOn(table: string): Promise<number> {
  const [row] = await db.sql<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE ${`%FROM ${table} %`}`;
  return row?.n ?? 0;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Sends the master dossier request on a raw socket once `masters` and `releases` are locked; the first query waits. */
async function dossierBehindLocks(): Promise<{ socket: Awaited<ReturnType<typeof openSocket>>; masters: ReservedSql; releases: ReservedSql }> {
  const masters = await lock('masters');
  const releases = await lock('releases');
  const socket = await openSocket(running.url);
  socket.on('error', () => {});
  socket.write(`GET /api/v1/dossier/master/113 HTTP/1.1\r\nHost: localhost\r\nx-api-key: ${key}\r\n\r\n`);
  await until(async () => (await waitingOn('masters')) === 1, 'the first query to wait on masters');
  return { socket, masters, releases };
}

describe('a client leaving mid-request on the Node host over PostgreSQL', () => {
  it('while the client stays, the dossier goes on to its next query (the control)', async () => {
    const { socket, masters, releases } = await dossierBehindLocks();
    await unlock(masters);
    await until(async () => (await waitingOn('releases')) === 1, 'the next query to wait on releases');
    await unlock(releases);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('\r\n\r\n')) resolve(text);
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });

  it('once the client left, the next query is never sent', async () => {
    const { socket, masters, releases } = await dossierBehindLocks();
    socket.destroy();
    // The host learns of the close on its next turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await unlock(masters);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await waitingOn('releases')).toBe(0);
    expect(await waitingOn('master_artists')).toBe(0);
    await unlock(releases);
  });
});
