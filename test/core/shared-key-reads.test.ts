/**
 * Single-flight key lookups through createService (issue 27 item 3; docs/decisions.md §3, "The
 * key cache"): requests that miss the key cache for one key at the same time make one
 * `findKeyByHash` read and share its answer — on the cold path, the re-read after `stale` and
 * the read on the fail-open path — without carrying one request's end into the others, without
 * sharing across keys, and without keeping a failure. The Accounts stub counts reads, can hold
 * them open, and ends a read like the PostgreSQL backstops do (a lifetime over by the end of
 * the read gets 504). On a real host and database: test/faults/key-lookup-storm.test.ts.
 */
import { type Accounts, ApiError, abortProbeOf, createService, issueCustomerKey, type Limiter, type LogRecord, sha256Hex } from '@catalogue/core';
import { createManualClock, createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { describe, expect, it } from 'vitest';
import { fixtureData } from '../support/fixture-data.js';

const COUNTED = '/api/v1/dossier/manifest';
const N = 20;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A service on memory ports whose key reads are counted and can be held open or failed. */
function harness(options: { epochs?: boolean; limiter?: (memory: Limiter) => Limiter } = {}) {
  const clock = createManualClock('2026-03-10T12:00:00Z');
  const inner = createMemoryAccounts({ now: () => clock.now() });
  const memory = createMemoryLimiter({ authEpochs: options.epochs === true });
  const limiter = options.limiter ? options.limiter(memory) : memory;
  const state = { reads: 0, hold: null as ReturnType<typeof deferred> | null, failure: null as Error | null };
  const accounts: Accounts = {
    ...inner,
    async findKeyByHash(hash, lifetime) {
      state.reads++;
      // The row as the store holds it when the read starts.
      const found = await inner.findKeyByHash(hash, lifetime);
      if (state.hold) await state.hold.promise;
      if (state.failure) throw state.failure;
      // As the PostgreSQL backstops (backstops.ts): a read whose lifetime ended meanwhile is dropped.
      if (abortProbeOf(lifetime)?.aborted) throw new ApiError('request_aborted');
      return found;
    },
  };
  const logs: LogRecord[] = [];
  const service = createService(
    { catalogue: createMemoryCatalogue(fixtureData()), accounts, limiter, clock, logger: { log: (r) => logs.push(r) } },
    { baseUrl: 'http://catalogue.test' },
  );
  const issue = async (email = 'dev@example.com') =>
    (
      await issueCustomerKey(
        inner,
        { email, tier: 'contract_2000', environment: 'test', overage: 'block', limits: { concurrency: 1000 } },
        new Date(clock.now()),
      )
    ).plaintext;
  const call = (key: string, init: RequestInit = {}) =>
    service.fetch(new Request(`http://catalogue.test${COUNTED}`, { ...init, headers: { 'x-api-key': key } }));
  /** Starts `n` requests of `key`, lets them reach the held read, then lets the read finish. */
  const burst = async (key: string, n: number) => {
    const hold = deferred();
    state.hold = hold;
    const pending = Array.from({ length: n }, () => call(key));
    await settle();
    state.hold = null;
    hold.resolve();
    return Promise.all(pending);
  };
  return { state, inner, memory, service, issue, call, burst, logs };
}

/** Every request started so far has reached the held read (none waits on anything else). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('concurrent lookups of one key share one read', () => {
  for (const epochs of [false, true]) {
    it(`${N} first requests of one key at once: one read, every one 200 (${epochs ? 'key cache' : 'no key cache'})`, async () => {
      const t = harness({ epochs });
      const key = await t.issue();
      const answers = await t.burst(key, N);
      expect(answers.map((r) => r.status)).toEqual(Array(N).fill(200));
      expect(t.state.reads).toBe(1);
    });
  }

  it('usage (an uncounted route) shares the read too', async () => {
    const t = harness();
    const key = await t.issue();
    const hold = deferred();
    t.state.hold = hold;
    const pending = Array.from({ length: N }, () => t.service.fetch(new Request('http://catalogue.test/api/v1/usage', { headers: { 'x-api-key': key } })));
    await settle();
    hold.resolve();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(t.state.reads).toBe(1);
  });

  it('two keys at once: one read each, never shared, each request answered as its own customer', async () => {
    const t = harness();
    const [a, b] = [await t.issue('a@example.com'), await t.issue('b@example.com')];
    const hold = deferred();
    t.state.hold = hold;
    const pending = Array.from({ length: N }, (_, i) => t.call(i % 2 ? b : a));
    await settle();
    hold.resolve();
    const answers = await Promise.all(pending);
    expect(t.state.reads).toBe(2);
    expect(answers.map((r) => r.status)).toEqual(Array(N).fill(200));
    // The access log names each answer's key by its display prefix.
    const prefixes = t.logs.filter((r) => r.kind === 'http.access').map((r) => r.key_prefix);
    expect(new Set(prefixes)).toEqual(new Set([a.slice(0, 12), b.slice(0, 12)]));
  });

  it('the first caller goes away: the others still get their answer; it gets 504 and is not counted', async () => {
    const t = harness();
    const key = await t.issue();
    const hold = deferred();
    t.state.hold = hold;
    const leaving = new AbortController();
    const first = t.call(key, { signal: leaving.signal });
    await settle();
    const others = Array.from({ length: N - 1 }, () => t.call(key));
    await settle();
    leaving.abort();
    hold.resolve();
    expect((await first).status).toBe(504);
    expect((await Promise.all(others)).map((r) => r.status)).toEqual(Array(N - 1).fill(200));
    expect(t.state.reads).toBe(1);
    const usage = await t.service.fetch(new Request('http://catalogue.test/api/v1/usage', { headers: { 'x-api-key': key } }));
    expect(((await usage.json()) as { calls: number }).calls).toBe(N - 1);
  });

  it('a read that fails answers every waiter with its error, and is not kept: the next request reads again', async () => {
    const t = harness({ epochs: true });
    const key = await t.issue();
    t.state.failure = new ApiError('pool_exhausted', {}, { 'retry-after': '5' });
    const answers = await t.burst(key, N);
    expect(answers.map((r) => r.status)).toEqual(Array(N).fill(503));
    expect(new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { error: string }).error)))).toEqual(new Set(['pool_exhausted']));
    expect(t.state.reads).toBe(1);
    t.state.failure = null;
    expect((await t.call(key)).status).toBe(200);
    expect(t.state.reads).toBe(2);
  });

  it('the re-read after a stale answer is shared', async () => {
    const t = harness({ epochs: true });
    const key = await t.issue();
    // The first answer learns the epoch, the second caches the key under it.
    for (let i = 0; i < 2; i++) expect((await t.call(key)).status).toBe(200);
    expect((await t.call(key)).status).toBe(200);
    expect(t.state.reads).toBe(2);
    await t.memory.bumpAuthEpoch?.();
    const answers = await t.burst(key, N);
    expect(answers.map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(t.state.reads).toBe(3);
  });

  it('the read on the fail-open path is shared', async () => {
    let failing = false;
    const t = harness({
      epochs: true,
      limiter: (memory) => ({ ...memory, admit: (request) => (failing ? Promise.reject(new Error('store away')) : memory.admit(request)) }),
    });
    const key = await t.issue();
    for (let i = 0; i < 2; i++) expect((await t.call(key)).status).toBe(200);
    failing = true;
    const answers = await t.burst(key, N);
    expect(answers.map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(answers.every((r) => r.headers.get('x-ratelimit-limit') === null)).toBe(true);
    expect(t.state.reads).toBe(3);
  });

  it('a request that joined a read started before a change it must see reads again: the revoked key is refused', async () => {
    const t = harness({ epochs: true });
    const key = await t.issue();
    for (let i = 0; i < 2; i++) expect((await t.call(key)).status).toBe(200);
    await t.memory.bumpAuthEpoch?.();
    const hold = deferred();
    t.state.hold = hold;
    // Started before the revocation: its read holds the active row.
    const before = t.call(key);
    await settle();
    // Another instance revokes the key and moves the shared epoch on (auth-invalidation.ts)…
    const found = await t.inner.findKeyByHash(sha256Hex(key));
    await t.inner.revokeKey(found?.customer.id as string, found?.key.id as string);
    await t.memory.bumpAuthEpoch?.();
    // …then a request arrives and joins the read in flight.
    const after = t.call(key);
    await settle();
    t.state.hold = null;
    hold.resolve();
    expect((await before).status).toBe(200);
    const refused = await after;
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('revoked_api_key');
    // And the old row was never cached: the next request is refused too.
    expect((await t.call(key)).status).toBe(401);
  });
});
