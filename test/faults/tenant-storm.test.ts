/**
 * docs/decisions.md §8: a database stall while one customer's clients give up must never answer
 * another customer's request with the first one's data, and must never leak backstop slots.
 *
 * The Node host (node:http + the Hono bridge) on a real PostgreSQL database, composed the way
 * createServiceFromEnv composes it for DATABASE_URL, with the pool of the configuration table
 * (DATABASE_POOL_MAX default 10). One session holds `LOCK TABLE api_keys IN ACCESS EXCLUSIVE
 * MODE` for 3 s; meanwhile customer A's clients give up after 0.8–1.7 s and customer B's wait.
 * With more queries than connections, postgres.js pipelines them, which is where a cancelled
 * query used to hand its result to the next one on the connection.
 *
 * Every call of a round presents a key of its own customer, issued just before the round:
 * since issue 27 concurrent lookups of one key are one read, and a cached key reads nothing,
 * so one key per customer would make two queries a round and nothing to pipeline. A mix-up is
 * an answer carrying another customer's id, or a key lookup the gate refused because the
 * store answered it with another key's row (`AccountsMismatch`, logged as an internal error):
 * that is how the §8 regression — QueryGuard cancelling a pipelined query on abort — shows
 * through the gate's own check. 503 and 504 prove nothing either way, so the patient calls
 * must mostly be 200s, each carrying its own customer's id.
 */
import { issueCustomerKey, type LogRecord } from '@catalogue/core';
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { connectPostgres, createPostgresAccounts, createPostgresCatalogue, guardFor, migrate, type QueryGuard } from '@catalogue/postgres';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { lockTable } from '../support/table-lock.js';

const ADMIN_TOKEN = 'storm-admin-token-0123456789abcdef';
const ROUNDS = 3;
const PER_CUSTOMER = 60;
const LOCK_MS = 3_000;
/** Patient calls that must be 200 (with their own customer's id): the mix-up check is not vacuous. */
const PATIENT_200_FLOOR = Math.ceil(ROUNDS * PER_CUSTOMER * 0.9);

interface Issued {
  key: string;
  customerId: string;
}

interface Answer {
  status: number;
  customerId: string | null;
  error: string | null;
}

let db: TestDatabase;
let sql: Sql;
let guard: QueryGuard;
let hosted: HostedService;
let running: RunningServer;
let issuerSql: Sql;
let accounts: ReturnType<typeof createPostgresAccounts>;
const logged: LogRecord[] = [];

/** A customer with one live key, written straight to the database (no key cache knows it). */
async function issue(tier: 'self_serve_299' | 'contract_2000', email: string): Promise<Issued> {
  const issued = await issueCustomerKey(accounts, { email, tier, environment: 'live' }, new Date());
  return { key: issued.plaintext, customerId: issued.customer.id };
}

/** How many key lookups the gate refused for being answered with another key's row. */
function refusedMismatches(): number {
  return logged.filter((record) => record.kind === 'request.internal_error' && String(record.error).includes('AccountsMismatch')).length;
}

async function usage(key: string, signal?: AbortSignal): Promise<Answer | 'gave-up'> {
  try {
    const response = await fetch(`${running.url}/api/v1/usage`, { headers: { 'x-api-key': key }, ...(signal ? { signal } : {}) });
    const body = (await response.json()) as { customer_id?: string; error?: string };
    return { status: response.status, customerId: body.customer_id ?? null, error: body.error ?? null };
  } catch (error) {
    if (signal?.aborted) return 'gave-up';
    throw error;
  }
}

/** Holds the lock on api_keys for `ms` from a session of its own; resolves once it is held. */
async function holdKeyTableLock(ms: number): Promise<{ released: Promise<void> }> {
  const lock = await lockTable(db.url, 'api_keys');
  return { released: new Promise((resolve) => setTimeout(resolve, ms)).then(() => lock.release()) };
}

interface RoundOutcome {
  mixups: number;
  patient: Answer[];
}

async function stormRound(round: number): Promise<RoundOutcome> {
  const keysOf = (tier: 'self_serve_299' | 'contract_2000', who: string) =>
    Promise.all(Array.from({ length: PER_CUSTOMER }, (_, i) => issue(tier, `${who}${round}-${i}@storm.example`)));
  const impatientKeys = await keysOf('self_serve_299', 'a');
  const patientKeys = await keysOf('contract_2000', 'b');
  const lock = await holdKeyTableLock(LOCK_MS);
  const impatient: Array<Promise<{ who: Issued; answer: Answer | 'gave-up' }>> = [];
  const patient: Array<Promise<{ who: Issued; answer: Answer | 'gave-up' }>> = [];
  const call = (who: Issued, signal?: AbortSignal) => usage(who.key, signal).then((answer) => ({ who, answer }));
  // A seeded shuffle of the two customers' calls: in strict alternation, postgres.js's
  // round-robin over an even pool would keep each customer on connections of its own.
  let seed = 0x9e3779b9 ^ round;
  const next = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed / 2 ** 32;
  };
  const order: Array<'a' | 'b'> = [...Array(PER_CUSTOMER).fill('a'), ...Array(PER_CUSTOMER).fill('b')];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j] as 'a' | 'b', order[i] as 'a' | 'b'];
  }
  for (const who of order) {
    if (who === 'a') impatient.push(call(impatientKeys[impatient.length] as Issued, AbortSignal.timeout(800 + Math.floor(next() * 900))));
    else patient.push(call(patientKeys[patient.length] as Issued));
  }
  const answers = (await Promise.all([...impatient, ...patient])).filter((called): called is { who: Issued; answer: Answer } => called.answer !== 'gave-up');
  await lock.released;
  let mixups = 0;
  for (const { who, answer } of answers) if (answer.customerId !== null && answer.customerId !== who.customerId) mixups++;
  const patientIds = new Set(patientKeys.map((who) => who.customerId));
  return { mixups, patient: answers.filter(({ who }) => patientIds.has(who.customerId)).map(({ answer }) => answer) };
}

async function settled(check: () => boolean, ms: number): Promise<void> {
  for (let waited = 0; !check() && waited < ms; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
}

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 1 });
  await migrate(db.sql);
  sql = connectPostgres(db.url, { max: 10 });
  guard = guardFor(sql);
  hosted = await createServiceFromEnv(
    { DATABASE_URL: db.url, ADMIN_TOKEN, LOG_LEVEL: 'error' },
    {
      logger: { log: (record) => logged.push(record) },
      storage: { catalogue: createPostgresCatalogue(sql), accounts: createPostgresAccounts(sql), description: 'PostgreSQL (storm test)' },
    },
  );
  running = await listen(createNodeServer(hosted.service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
  issuerSql = connectPostgres(db.url, { max: 2 });
  accounts = createPostgresAccounts(issuerSql);
}, 60_000);

afterAll(async () => {
  await running?.close();
  await hosted?.close();
  await sql?.end({ timeout: 5 });
  await issuerSql?.end({ timeout: 5 });
  await db?.drop();
});

describe('a database stall with one customer’s clients giving up (docs/decisions.md §8)', () => {
  it('never answers one customer as another (nor a key lookup with another key), answers the patient calls 200, and leaks no slot', async () => {
    const outcomes: RoundOutcome[] = [];
    for (let round = 0; round < ROUNDS; round++) outcomes.push(await stormRound(round));

    const mixups = outcomes.reduce((sum, outcome) => sum + outcome.mixups, 0) + refusedMismatches();
    const patient = outcomes.flatMap((outcome) => outcome.patient);
    await settled(() => guard.inFlight === 0, 12_000);
    const leaked = guard.inFlight;
    console.info(
      `storm: ${ROUNDS} rounds, ${mixups} mix-ups (answers carrying another customer's id, key lookups answered with another key's row), ${leaked} slots held after the storm`,
    );

    expect(mixups, 'answers carrying another customer, and key lookups answered with another key').toBe(0);
    // Every patient call was answered (none gave up), at most a few with a transient 503/504,
    // and at least PATIENT_200_FLOOR with 200 and its own customer (checked per answer above).
    expect(patient).toHaveLength(ROUNDS * PER_CUSTOMER);
    for (const answer of patient) if (answer.status !== 200) expect([503, 504]).toContain(answer.status);
    expect(patient.filter((answer) => answer.status === 200 && answer.customerId !== null).length).toBeGreaterThanOrEqual(PATIENT_200_FLOOR);
    expect(logged.filter((record) => record.kind === 'request.internal_error')).toEqual([]);

    // After the storm the service is healthy: 40 sequential calls, each answered as its own customer.
    const after = [await issue('self_serve_299', 'a-after@storm.example'), await issue('contract_2000', 'b-after@storm.example')];
    for (let i = 0; i < 40; i++) {
      const who = after[i % 2] as Issued;
      const answer = await usage(who.key);
      expect(answer).toMatchObject({ status: 200, customerId: who.customerId });
    }
    expect(guard.inFlight).toBe(0);
  }, 120_000);
});
