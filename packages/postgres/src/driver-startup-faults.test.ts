/**
 * A backend terminated while postgres.js is still starting a connection (its array-types query,
 * `fetch_types`) — what a failover or an operator's pg_terminate_backend does to a pool warming
 * up (docs/decisions.md §8). postgres.js 3.4.9 dropped that query's promise (an unhandled
 * rejection: the process dies under Node's default) and replayed the dead backend's 57P01 onto
 * the first query after the reconnect (porsager/postgres#1192, #1223; patches/postgres+3.4.9.patch).
 *
 * Deterministic: a TCP proxy in front of the real server holds the first array-types query and
 * terminates that very backend with pg_terminate_backend, so the driver sees exactly what a real
 * termination at that moment sends.
 */
import net from 'node:net';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../../../test/conformance/databases.js';
import { connectPostgres } from './connect.js';

const APPLICATION = 'driver-startup-faults';

describe('postgres.js: a backend terminated during connection start-up', () => {
  let db: TestDatabase;
  let proxy: net.Server;
  let proxyUrl: string;
  let terminatedDuringTypes = 0;

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 1 });
    const target = new URL(db.url);
    const [targetHost, targetPort] = [target.hostname, Number(target.port)];
    proxy = net.createServer((client) => {
      const server = net.connect(targetPort, targetHost);
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
      server.pipe(client);
      client.on('data', (chunk: Buffer) => {
        if (terminatedDuringTypes === 0 && chunk.includes('typarray')) {
          // Hold the query and kill its backend: the server answers 57P01 and closes.
          terminatedDuringTypes++;
          // postgres.js queries are lazy: .then() is what sends it.
          db.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${APPLICATION}`.then(
            () => undefined,
            () => undefined,
          );
          return;
        }
        server.write(chunk);
      });
      client.on('close', () => server.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address() as net.AddressInfo;
    target.host = `127.0.0.1:${address.port}`;
    proxyUrl = target.toString();
  });
  afterAll(async () => {
    proxy?.close();
    await db?.drop();
  });

  it('settles the start-up query, reconnects, and answers the first query with its own result', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let sql: Sql | undefined;
    try {
      sql = connectPostgres(proxyUrl, { max: 1, postgres: { connection: { application_name: APPLICATION } } });
      const rows = await sql<Array<{ answer: number }>>`SELECT 42::int AS answer`;
      // A turn of the event loop for a dropped promise's rejection to surface.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(terminatedDuringTypes).toBe(1);
      expect(rows[0]?.answer).toBe(42);
      // Array parameters still work on the reconnected connection (its types were fetched).
      const arrays = await sql<Array<{ n: number }>>`SELECT cardinality(${[1, 2, 3]}::int[]) AS n`;
      expect(arrays[0]?.n).toBe(3);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await sql?.end({ timeout: 5 });
    }
  }, 30_000);
});
