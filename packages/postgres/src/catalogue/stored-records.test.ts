/**
 * Small master record reads joined per turn of the event loop (stored-records.ts), on a real
 * server: one query for the reads of one turn, each read answered with its own records only,
 * a read whose request ended refused or dropped on its own, a failure of the joined query
 * shared by every read in it, and large reads never joined. Then through the service: eight
 * concurrent master requests, each answered with its own master.
 */
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../../../../test/conformance/databases.js';
import { fixtureData } from '../../../../test/support/fixture-data.js';
import { QueryGuard } from '../backstops.js';
import type { Reader } from './reader.js';
import { COALESCE_UP_TO, type StoredRead, StoredRecords } from './stored-records.js';

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

const idsOf = ({ records }: StoredRead) => records.map((record) => record.master_id).sort((a, b) => a - b);

describe('StoredRecords on PostgreSQL', () => {
  let db: TestDatabase;
  let sql: Sql;
  let queries = 0;
  let stored: StoredRecords;

  beforeAll(async () => {
    db = await createPostgresDatabase();
    sql = db.connect({ max: 4, statementTimeoutMs: 300 });
    await sql`CREATE TABLE master_records (master_id integer PRIMARY KEY, record json NOT NULL)`;
    await sql`INSERT INTO master_records SELECT n, json_build_object('master_id', n) FROM generate_series(1, 400) AS n`;
    // The generation each read answers beside its records (migration 0008's one-row table).
    await sql`CREATE TABLE catalogue_state (generation bigint NOT NULL)`;
    await sql`INSERT INTO catalogue_state VALUES (7)`;
    const guard = new QueryGuard(10);
    const read: Reader = (abort, build) => {
      queries++;
      return guard.query(abort, build);
    };
    stored = new StoredRecords(sql, read);
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Runs `work` while another transaction holds master_records locked, so a query on it waits. */
  async function whileRecordsLocked(work: () => Promise<void>): Promise<void> {
    const holder = await sql.reserve();
    try {
      await holder`BEGIN`;
      await holder`LOCK TABLE master_records IN ACCESS EXCLUSIVE MODE`;
      await work();
    } finally {
      await holder`ROLLBACK`;
      holder.release();
    }
  }

  it('joins the small reads of one turn in one query and answers each with its own records', async () => {
    queries = 0;
    const reads = [stored.byIds([1], undefined), stored.byIds([2, 3], undefined), stored.byIds([3, 999], undefined), stored.byIds([4], undefined)];
    const answers = await Promise.all(reads);
    expect(queries).toBe(1);
    expect(answers.map(idsOf)).toEqual([[1], [2, 3], [3], [4]]);
    // Each with the generation of the snapshot its records are of.
    expect(answers.map((answer) => answer.generation)).toEqual([7, 7, 7, 7]);
    // Each record is its own row's text, never another id's.
    for (const answer of answers) for (const record of answer.records) expect(JSON.parse(record.json)).toEqual({ master_id: record.master_id });
  });

  it('reads of the next turn make the next query', async () => {
    queries = 0;
    await stored.byIds([5], undefined);
    await stored.byIds([6], undefined);
    expect(queries).toBe(2);
  });

  it('refuses a read whose request already ended, and drops one that ends while the query runs, leaving the others answered', async () => {
    queries = 0;
    const ended = { aborted: true };
    const ending = { aborted: false };
    const refused = caught(stored.byIds([7], ended));
    const dropped = caught(stored.byIds([8], ending));
    const answered = stored.byIds([9], { aborted: false });
    ending.aborted = true;
    expect(await refused).toMatchObject({ status: 504, code: 'request_aborted' });
    expect(await dropped).toMatchObject({ status: 504, code: 'request_aborted' });
    expect(idsOf(await answered)).toEqual([9]);
    expect(queries).toBe(1);
  });

  it('shares a failure of the joined query with every read in it (a statement timeout is 504 query_timeout)', async () => {
    await whileRecordsLocked(async () => {
      const failures = await Promise.all([caught(stored.byIds([10], undefined)), caught(stored.byIds([11], undefined))]);
      expect(failures).toMatchObject([
        { status: 504, code: 'query_timeout' },
        { status: 504, code: 'query_timeout' },
      ]);
    });
    expect(idsOf(await stored.byIds([10], undefined))).toEqual([10]);
  });

  it('answers every joined read 503 database_unavailable when the backend running the query is terminated, and reads again after', async () => {
    await whileRecordsLocked(async () => {
      const reads = [caught(stored.byIds([12], undefined)), caught(stored.byIds([13, 14], undefined))];
      // The joined query waits on the lock: end its backend as a restart or an operator would.
      let terminated = 0;
      for (let i = 0; i < 100 && terminated === 0; i++) {
        const [row] = await db.sql<Array<{ n: number }>>`
          SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM master_records%'`;
        terminated = row?.n ?? 0;
        if (terminated === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(terminated).toBe(1);
      expect(await Promise.all(reads)).toMatchObject([
        { status: 503, code: 'database_unavailable' },
        { status: 503, code: 'database_unavailable' },
      ]);
    });
    expect(idsOf(await stored.byIds([12], undefined))).toEqual([12]);
  });

  it('never joins a large read, and splits joined reads past 256 ids', async () => {
    queries = 0;
    const large = Array.from({ length: COALESCE_UP_TO + 1 }, (_, i) => 100 + i);
    const answers = await Promise.all([stored.byIds(large, undefined), stored.byIds(large, undefined), stored.byIds([1], undefined)]);
    expect(queries).toBe(3);
    expect(answers.map((answer) => answer.records.length)).toEqual([COALESCE_UP_TO + 1, COALESCE_UP_TO + 1, 1]);

    queries = 0;
    const thirty = (start: number) => Array.from({ length: 30 }, (_, i) => start + i);
    const split = await Promise.all(Array.from({ length: 10 }, (_, k) => stored.byIds(thirty(1 + k * 30), undefined)));
    expect(queries).toBe(2);
    expect(split.map(idsOf)).toEqual(Array.from({ length: 10 }, (_, k) => thirty(1 + k * 30)));
  });

  it('with coalescing off, every read is its own query', async () => {
    let own = 0;
    const guard = new QueryGuard(10);
    const alone = new StoredRecords(
      sql,
      (abort, build) => {
        own++;
        return guard.query(abort, build);
      },
      0,
    );
    await Promise.all([alone.byIds([1], undefined), alone.byIds([2], undefined)]);
    expect(own).toBe(2);
  });
});

describe('concurrent master requests through the service on PostgreSQL', () => {
  const ADMIN_TOKEN = 'stored-records-admin-token-0123456789';
  let db: TestDatabase;
  let hosted: HostedService;

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 2 });
    await loadCatalogue(db, fixtureData());
    hosted = await createServiceFromEnv({ DATABASE_URL: db.url, ADMIN_TOKEN, LOG_LEVEL: 'error', CATALOGUE_CACHE_MB: '0' });
  }, 60_000);
  afterAll(async () => {
    await hosted?.close();
    await db?.drop();
  });

  it('answers each request with its own master, and 404 for one that does not exist', async () => {
    const issued = await hosted.service.fetch(
      new Request('http://catalogue.test/api/v1/admin/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'joined@example.com' }),
      }),
    );
    const { key } = (await issued.json()) as { key: string };
    const ids = fixtureData().masters.map((master) => master.master_id);
    expect(ids.length).toBeGreaterThan(3);
    const asked = [...ids, 999_999_999];
    const answers = await Promise.all(
      asked.map((id) => hosted.service.fetch(new Request(`http://catalogue.test/api/v1/masters/${id}`, { headers: { 'x-api-key': key } }))),
    );
    const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<{ master_id?: number; error?: string }>));
    expect(answers.map((answer) => answer.status)).toEqual([...ids.map(() => 200), 404]);
    expect(bodies.slice(0, ids.length).map((body) => body.master_id)).toEqual(ids);
    expect(bodies[ids.length]).toMatchObject({ error: 'master_not_found', master_id: 999_999_999 });
  });
});
