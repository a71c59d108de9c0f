/**
 * The backstops against a real server: 503 pool_exhausted at the cap, 504 query_timeout from a
 * real statement timeout, 504 request_aborted at once from an aborted signal (the query is left
 * to finish, never cancelled), 503 database_unavailable for a terminated backend, results that
 * never move between queries, and the pool healthy afterwards with no leftover backend.
 */
import { ApiError } from '@catalogue/core';
import type { PendingQuery, Row, Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../../../test/conformance/databases.js';
import { QueryGuard } from './backstops.js';

describe('backstops on PostgreSQL', () => {
  let db: TestDatabase;
  let sql: Sql;
  let guard: QueryGuard;

  beforeAll(async () => {
    db = await createPostgresDatabase();
    sql = db.connect({ max: 3, statementTimeoutMs: 1_000 });
    guard = new QueryGuard(3);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const caught = async (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );

  async function leftoverBackends(): Promise<number> {
    const rows = await db.sql<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE '%pg_sleep%' AND state = 'active' AND pid <> pg_backend_pid()`;
    return rows[0]?.n ?? 0;
  }

  it('answers 503 pool_exhausted with Retry-After 5 at once when the cap is reached', async () => {
    const controller = new AbortController();
    const running = Array.from({ length: 3 }, () => guard.query(controller.signal, () => sql`SELECT pg_sleep(0.5)`));
    const error = await caught(guard.query(undefined, () => sql`SELECT 1`));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'pool_exhausted', headers: { 'retry-after': '5' } });
    await Promise.all(running);
    expect(guard.inFlight).toBe(0);
    expect(await guard.query(undefined, () => sql<Array<{ one: number }>>`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });

  it('turns a real statement timeout into 504 query_timeout', async () => {
    const error = await caught(guard.query(undefined, () => sql`SELECT pg_sleep(3)`));
    expect(error).toMatchObject({ status: 504, code: 'query_timeout' });
    expect(guard.inFlight).toBe(0);
  });

  it('lets an aborted request’s query finish with its slot held, and starts no query after the abort', async () => {
    const controller = new AbortController();
    const pending = guard.query(controller.signal, () => sql`SELECT pg_sleep(0.6)`);
    for (let tries = 0; tries < 50 && (await leftoverBackends()) === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    // Not cancelled: the backend still runs it, and the slot is still taken.
    expect(await leftoverBackends()).toBe(1);
    expect(guard.inFlight).toBe(1);
    expect(await caught(pending)).toMatchObject({ status: 504, code: 'request_aborted' });
    expect(guard.inFlight).toBe(0);
    expect(await caught(guard.query(controller.signal, () => sql`SELECT 1`))).toMatchObject({ code: 'request_aborted' });
  });

  it('adds no abort listener per query: a request of many queries raises no MaxListeners warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const controller = new AbortController();
    const own = new QueryGuard(100);
    await Promise.all(Array.from({ length: 30 }, (_, i) => own.query(controller.signal, () => sql`SELECT ${i}::int AS i`)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('warning', onWarning);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('never hands an aborted query’s result to the query behind it on the same connection (docs/decisions.md §8)', async () => {
    const one = db.connect({ max: 1 });
    const own = new QueryGuard(10);
    const ask = (signal: AbortSignal | undefined, value: string, sleep: number) =>
      own.query(signal, () => one<Array<{ v: string }>>`SELECT ${value}::text AS v, pg_sleep(${sleep})`).then((rows) => rows.map((row) => row.v));
    for (let round = 0; round < 5; round++) {
      const controller = new AbortController();
      // All three go to the one connection: the second and third are pipelined behind the first.
      const first = ask(undefined, `first-${round}`, 0.2);
      const aborted = ask(controller.signal, `aborted-${round}`, 0.05);
      const last = ask(undefined, `last-${round}`, 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      expect(await caught(aborted)).toMatchObject({ code: 'request_aborted' });
      expect(await first).toEqual([`first-${round}`]);
      expect(await last).toEqual([`last-${round}`]);
    }
    for (let tries = 0; tries < 50 && own.inFlight > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(own.inFlight).toBe(0);
  });

  it('gives the query after one that failed mid-stream its own rows only (porsager/postgres#1181)', async () => {
    const one = db.connect({ max: 1 });
    const own = new QueryGuard(10);
    const failed = await caught(own.query(undefined, () => one`SELECT i, 1 / (4 - i) AS boom FROM generate_series(1, 10) i`));
    expect(failed).toMatchObject({ code: '22012' });
    const rows = await own.query(undefined, () => one<Array<{ x: number }>>`SELECT x FROM generate_series(1, 5) x`);
    expect(rows).toHaveLength(5);
    expect(rows.map((row) => row.x)).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers 503 database_unavailable with Retry-After when the backend is terminated, and the pool heals', async () => {
    const one = db.connect({ max: 1 });
    const own = new QueryGuard(10);
    // Caught at once: the termination below may reject it before the await that reads it.
    const running = caught(own.query(undefined, () => one`SELECT pg_sleep(2)`));
    for (let tries = 0; tries < 50 && (await leftoverBackends()) === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    await db.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE datname = current_database() AND query LIKE '%pg_sleep(%' AND state = 'active' AND pid <> pg_backend_pid()`;
    expect(await running).toMatchObject({ status: 503, code: 'database_unavailable', headers: { 'retry-after': '5' } });
    // A call racing the socket's close may get the same 503; within a second the pool has reconnected.
    let answer: unknown = null;
    for (let tries = 0; tries < 20; tries++) {
      answer = await own.query(undefined, () => one<Array<{ one: number }>>`SELECT 1 AS one`).catch((error: unknown) => error);
      if (Array.isArray(answer)) break;
      expect(answer).toMatchObject({ status: 503, code: 'database_unavailable' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answer).toEqual([{ one: 1 }]);
    expect(own.inFlight).toBe(0);
  });

  it('gives back the slot of a query the driver never settles, answering 503 and logging it', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const own = new QueryGuard(10, { lostAfterMs: 150, logger: { log: (record) => logged.push(record) } });
    const never = new Promise<never>(() => {}) as unknown as PendingQuery<Row[]>;
    // The query never settles, so only the sweep can answer this call (no wall-clock bound needed).
    const error = await caught(own.query(undefined, () => never));
    expect(error).toMatchObject({ status: 503, code: 'database_unavailable' });
    expect(own.inFlight).toBe(0);
    expect(logged).toMatchObject([{ level: 'error', kind: 'database.query_lost' }]);
  });

  it('is healthy afterwards: every connection answers and no test backend is left running', async () => {
    const answers = await Promise.all(Array.from({ length: 3 }, (_, i) => guard.query(undefined, () => sql<Array<{ n: number }>>`SELECT ${i}::int AS n`)));
    expect(answers.map((rows) => rows[0]?.n)).toEqual([0, 1, 2]);
    expect(await leftoverBackends()).toBe(0);
  });
});
