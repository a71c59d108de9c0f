/**
 * The backstops against a real server: 503 pool_exhausted at the cap, 504 query_timeout from a
 * real statement timeout, 504 request_aborted from an aborted signal (the backend query is
 * cancelled), and the pool healthy afterwards with no leftover backend.
 */
import { ApiError } from '@catalogue/core';
import type { Sql } from 'postgres';
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

  it('cancels the running query on an aborted signal and answers 504 request_aborted', async () => {
    const controller = new AbortController();
    const pending = guard.query(controller.signal, () => sql`SELECT pg_sleep(0.9)`);
    // Abort once the server runs it, so the cancel request reaches a live backend query.
    for (let tries = 0; tries < 50 && (await leftoverBackends()) === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const error = await caught(pending);
    expect(error).toMatchObject({ status: 504, code: 'request_aborted' });
    expect(await caught(guard.query(controller.signal, () => sql`SELECT 1`))).toMatchObject({ code: 'request_aborted' });
    expect(guard.inFlight).toBe(0);
  });

  it('is healthy afterwards: every connection answers and no test backend is left running', async () => {
    const answers = await Promise.all(Array.from({ length: 3 }, (_, i) => guard.query(undefined, () => sql<Array<{ n: number }>>`SELECT ${i}::int AS n`)));
    expect(answers.map((rows) => rows[0]?.n)).toEqual([0, 1, 2]);
    expect(await leftoverBackends()).toBe(0);
  });
});
