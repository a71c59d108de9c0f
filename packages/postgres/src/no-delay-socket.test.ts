/**
 * connectPostgres's connections have Nagle's algorithm off (no-delay-socket.ts): every socket
 * the pool opens to PostgreSQL, the first ones and those of a reconnect after the backend was
 * terminated. COPY and pipelined queries answer as before; a Unix-socket URL and a URL of
 * several hosts (postgres.js's own sockets) still connect.
 *
 * Each socket is caught where every TCP connect passes (net.Socket.prototype.connect), and its
 * Nagle setting read from Node's own record of it (the kSetNoDelay symbol net.js keeps per
 * socket and applies to the handle at connect).
 */
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../../../test/conformance/databases.js';
import { connectPostgres } from './connect.js';
import { noDelaySocket } from './no-delay-socket.js';

function nagleOff(socket: net.Socket): boolean {
  const flag = Object.getOwnPropertySymbols(socket).find((symbol) => String(symbol) === 'Symbol(kSetNoDelay)');
  return flag !== undefined && (socket as unknown as Record<symbol, unknown>)[flag] === true;
}

/** The TCP sockets opened to `port` from here on (Unix-socket connects are left out). */
function socketsTo(port: number): net.Socket[] {
  const sockets: net.Socket[] = [];
  const connect = net.Socket.prototype.connect;
  vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    // net.connect hands its options on as a normalized array ([options, callback]).
    const [first, second] = (Array.isArray(args[0]) ? args[0] : args) as [unknown, unknown];
    const target = typeof first === 'object' && first !== null ? (first as { port?: unknown; path?: unknown }) : { port: first, path: second };
    if (Number(target.port) === port) sockets.push(this);
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  });
  return sockets;
}

describe('connectPostgres: Nagle off on every connection', () => {
  let db: TestDatabase;
  let sql: Sql | undefined;
  const port = () => Number(new URL(db.url).port || 5432);

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 1 });
    await db.sql`CREATE TABLE copied (n int)`;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await sql?.end({ timeout: 5 });
    sql = undefined;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('opens its sockets with TCP_NODELAY; COPY and pipelined queries answer', async () => {
    const sockets = socketsTo(port());
    sql = connectPostgres(db.url, { max: 2 });
    const pipelined = await Promise.all(Array.from({ length: 50 }, (_, i) => (sql as Sql)`SELECT ${i}::int AS n`));
    expect(pipelined.map(([row]) => row?.n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const reserved = await sql.reserve();
    const stream = await reserved`COPY copied (n) FROM STDIN`.writable();
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('finish', resolve);
      stream.end('1\n2\n3\n');
    });
    reserved.release();
    expect(await sql`SELECT sum(n)::int AS sum FROM copied`).toEqual([{ sum: 6 }]);
    expect(sockets.length).toBeGreaterThan(0);
    expect(sockets.map(nagleOff)).toEqual(sockets.map(() => true));
  });

  it('a reconnect after the backend was terminated opens its socket with TCP_NODELAY too', async () => {
    const sockets = socketsTo(port());
    sql = connectPostgres(db.url, { max: 1 });
    const [first] = await sql<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
    const pid = first?.pid as number;
    await db.sql`SELECT pg_terminate_backend(${pid})`;
    // Queries may meet the dead backend until the pool has noticed and reconnected.
    let next = pid;
    for (let attempt = 0; attempt < 50 && next === pid; attempt++) {
      const rows = await (sql as Sql)<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`.catch(() => [{ pid }]);
      next = rows[0]?.pid ?? pid;
      if (next === pid) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(next).not.toBe(pid);
    expect(sockets.length).toBeGreaterThanOrEqual(2);
    expect(sockets.map(nagleOff)).toEqual(sockets.map(() => true));
  });

  it('a Unix socket path is connected as a path; a URL of several hosts keeps postgres.js’s own sockets', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'nodelay-')), 's.sock');
    const accepted = new Promise<void>((resolve) => {
      const server = net.createServer((socket) => {
        socket.destroy();
        server.close();
        resolve();
      });
      server.listen(path);
    });
    const socket = noDelaySocket({ host: ['ignored'], port: [1], path });
    socket.on('error', () => undefined);
    await accepted;
    socket.destroy();
    const database = new URL(db.url).pathname.slice(1);
    sql = connectPostgres(`postgres://postgres@127.0.0.1:${port()},127.0.0.1:${port()}/${database}`, { max: 1 });
    expect((sql.options as { socket?: unknown }).socket).toBeUndefined();
    expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });
});
