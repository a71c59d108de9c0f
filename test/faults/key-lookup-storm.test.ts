/**
 * A storm of first requests of one key (issue 27 item 3; docs/decisions.md §3 and §8): the Node
 * host as operators run it, on a real PostgreSQL database with REDIS_URL on a redis-server of
 * this test's own, receives 150 requests of one fresh key at once. Every one must be 200: the
 * key's lookup is one database call shared by all of them, not 150 calls against the 144
 * allowed in flight per instance (before the change, 6 of them answered 503 pool_exhausted).
 *
 * How the backstop is made to bite without timing luck: the test holds an ACCESS EXCLUSIVE
 * lock on `api_keys` while the requests arrive, so every key lookup that reaches PostgreSQL
 * waits and keeps its backstop slot (backstops.ts: a slot is held until the query settles). One
 * lookup per request then holds 144 slots and refuses the rest at once; one shared lookup holds
 * one. The lock is let go once the first lookup waits on it and the requests have had a moment
 * to arrive; no assertion depends on how long anything took.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../conformance/databases.js';
import { issueKeyOverHttp } from '../support/admin-keys.js';
import { type HostOnStores, startHostOnStores } from '../support/host-on-stores.js';
import { lockTable } from '../support/table-lock.js';

const ADMIN_TOKEN = 'storm-admin-token-0123456789abcdef';
/** A counted route that needs no catalogue rows: the key lookup is its only database read. */
const COUNTED = '/api/v1/dossier/manifest';
const STORM = 150;

describe('150 first requests of one key at once on a cold Node host (PostgreSQL + Redis)', () => {
  let stores: HostOnStores | undefined;
  let base = '';
  let db: TestDatabase;

  beforeAll(async () => {
    stores = await startHostOnStores({ ADMIN_TOKEN });
    ({ base, db } = stores);
  }, 120_000);

  afterAll(async () => {
    await stores?.stop();
  });

  it('all 200, none 503 pool_exhausted: the key is looked up once', async () => {
    // Limits that let all 150 through, so any refusal is the database's.
    const key = await issueKeyOverHttp(base, ADMIN_TOKEN, {
      email: 'storm@example.com',
      limits: { burst_per_minute: 10_000, concurrency: 1_000 },
    });
    const answers: Array<{ status: number; error?: string }> = [];
    const lock = await lockTable(db.url, 'api_keys');
    try {
      const storm = Array.from({ length: STORM }, async () => {
        const response = await fetch(`${base}${COUNTED}`, { headers: { 'x-api-key': key } });
        const body = (await response.json()) as { error?: string };
        answers.push({ status: response.status, ...(body.error ? { error: body.error } : {}) });
      });
      // The first lookup reaches PostgreSQL and waits on the lock…
      for (let i = 0; i < 200 && !(await lookupWaiting(db)); i++) await new Promise((r) => setTimeout(r, 25));
      // …and the rest arrive meanwhile (refusals, if any, come back at once).
      for (let i = 0; i < 40 && answers.length < STORM - 144; i++) await new Promise((r) => setTimeout(r, 50));
      await lock.release();
      await Promise.all(storm);
    } finally {
      await lock.release();
    }
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toEqual([]);
    expect(answers).toHaveLength(STORM);
  }, 120_000);
});

/** A query of the host waits for the test's lock on api_keys. */
async function lookupWaiting(db: TestDatabase): Promise<boolean> {
  const rows = await db.sql<Array<{ waiting: number }>>`
    SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
    WHERE c.relname = 'api_keys' AND NOT l.granted`;
  return (rows[0]?.waiting ?? 0) > 0;
}
