/**
 * /readyz while key-limit decisions fail open (issue 27 item 5; docs/decisions.md §8, "Health
 * and readiness"): a limit store that answers its PING but fails every decision leaves every
 * request unmetered, so once decisions have failed open for FAIL_OPEN_NOT_READY_MS with none
 * made, `limits` is not ready and `ratelimit.failing_open` is alarmed; one decision made makes
 * it ready again. The service's manual clock stands for time: nothing here waits. On a real
 * host, Redis and PostgreSQL: test/faults/readiness-fail-open.test.ts.
 */
import { createService, FAIL_OPEN_NOT_READY_MS, issueCustomerKey, type Limiter, type Probe } from '@catalogue/core';
import { createManualClock, createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { describe, expect, it } from 'vitest';
import { fixtureData } from '../support/fixture-data.js';
import { expectError } from '../support/service.js';

const BASE = 'http://catalogue.test';

/** A limiter that can fail (as a Redis one can), failing while `state.failing`. */
function harness(probes?: Probe[]) {
  const clock = createManualClock('2026-03-10T12:00:00Z');
  const accounts = createMemoryAccounts({ now: () => clock.now() });
  const memory = createMemoryLimiter();
  const state = { failing: false };
  const fail = () => Promise.reject(new Error('OOM command not allowed when used memory > maxmemory'));
  const limiter: Limiter = {
    ...memory,
    inProcess: false,
    admit: (request) => (state.failing ? fail() : memory.admit(request)),
    peek: (request) => (state.failing ? fail() : memory.peek(request)),
  };
  const alarms: string[] = [];
  const service = createService(
    {
      catalogue: createMemoryCatalogue(fixtureData()),
      accounts,
      limiter,
      clock,
      logger: { log() {} },
      alarm: { raise: (kind) => alarms.push(kind) },
      ...(probes ? { probes } : {}),
    },
    { baseUrl: BASE },
  );
  const issue = async () =>
    (
      await issueCustomerKey(
        accounts,
        { email: 'dev@example.com', tier: 'contract_2000', environment: 'test', overage: 'block', limits: null },
        new Date(clock.now()),
      )
    ).plaintext;
  const call = (key: string, path = '/api/v1/dossier/manifest') => service.fetch(new Request(`${BASE}${path}`, { headers: { 'x-api-key': key } }));
  const readyz = () => service.fetch(new Request(`${BASE}/readyz`));
  /** Calls every second for a whole window, each failing open. */
  const failOpenFor = async (key: string, ms: number) => {
    for (let waited = 0; ; waited += 1_000) {
      const res = await call(key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      if (waited >= ms) return;
      clock.advance(1_000);
    }
  };
  /** Decisions fail from now on: calls fail open for a whole window, and the instance is not ready. */
  const failOpenUntilNotReady = async (key: string) => {
    state.failing = true;
    await failOpenFor(key, FAIL_OPEN_NOT_READY_MS);
    const res = await readyz();
    expect(res.status).toBe(503);
    return res;
  };
  return { clock, state, alarms, issue, call, readyz, failOpenFor, failOpenUntilNotReady };
}

describe('/readyz while key-limit decisions fail open', () => {
  it('ready until decisions have failed open for the window; then 503 naming limits, alarmed; one decision makes it ready again', async () => {
    const t = harness([{ name: 'database', check: async () => {} }]);
    const key = await t.issue();
    expect(await (await t.readyz()).json()).toEqual({ status: 'ready', checks: { database: 'ok', limits: 'ok' } });
    t.state.failing = true;
    await t.failOpenFor(key, FAIL_OPEN_NOT_READY_MS - 1_000);
    expect((await t.readyz()).status).toBe(200);
    expect(t.alarms).not.toContain('ratelimit.failing_open');
    t.clock.advance(1_000);
    expect((await t.call(key)).status).toBe(200);
    const res = await t.readyz();
    const body = await expectError(res, 503, 'not_ready');
    expect(body.details).toEqual([{ path: 'limits', message: expect.stringMatching(/^key-limit decisions fail open/) }]);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(t.alarms).toContain('ratelimit.failing_open');

    t.state.failing = false;
    const decided = await t.call(key);
    expect(decided.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(await (await t.readyz()).json()).toEqual({ status: 'ready', checks: { database: 'ok', limits: 'ok' } });
  });

  it('usage’s peek counts as a key-limit decision too', async () => {
    const t = harness();
    const key = await t.issue();
    await t.failOpenUntilNotReady(key);
    t.state.failing = false;
    expect((await t.call(key, '/api/v1/usage')).status).toBe(200);
    expect((await t.readyz()).status).toBe(200);
  });

  it('a quiet spell of the window with no key request makes it ready again (nothing shows decisions fail)', async () => {
    const t = harness();
    await t.failOpenUntilNotReady(await t.issue());
    t.clock.advance(FAIL_OPEN_NOT_READY_MS);
    expect((await t.readyz()).status).toBe(200);
  });

  it('the limit store’s own check speaks first: one limits detail, its message', async () => {
    const unreachable: Probe = {
      name: 'limits',
      check: async () => {
        throw new Error('limit store unreachable (ECONNREFUSED)');
      },
    };
    const t = harness([unreachable]);
    const body = await expectError(await t.failOpenUntilNotReady(await t.issue()), 503, 'not_ready');
    expect(body.details).toEqual([{ path: 'limits', message: 'limit store unreachable (ECONNREFUSED)' }]);
  });

  it('the in-process limiter cannot fail: no limits check', async () => {
    const service = createService(
      { catalogue: createMemoryCatalogue(fixtureData()), accounts: createMemoryAccounts(), limiter: createMemoryLimiter(), logger: { log() {} } },
      { baseUrl: BASE },
    );
    expect(await (await service.fetch(new Request(`${BASE}/readyz`))).json()).toEqual({ status: 'ready', checks: {} });
  });
});
