/**
 * /readyz while every limit decision fails open but Redis still answers PING (issue 27 item 5;
 * docs/decisions.md §8, "Health and readiness"). The Node host as operators run it, on a real
 * PostgreSQL database with REDIS_URL on a redis-server of this test's own, which is made to
 * refuse writes while PING answers PONG: `min-replicas-to-write 1` with no replica answers
 * every write of the admit script NOREPLICAS. Requests go on, failing open; once that has
 * lasted FAIL_OPEN_NOT_READY_MS the instance answers 503 not_ready naming `limits` and alarms
 * `ratelimit.failing_open`; with the setting lifted, the next request is decided again and the
 * instance is ready.
 *
 * Why not `maxmemory 1` + `noeviction`: Redis checks OOM inside a script only until its first
 * write, and an admit's first write is usually the ZREM of earlier calls' lease releases (not
 * an OOM-refused command), so admits go on succeeding out of memory; NOREPLICAS refuses every
 * write of a script.
 *
 * Real seconds pass here (polled, each wait bounded); the assertions are on states only.
 */
import { FAIL_OPEN_NOT_READY_MS } from '@catalogue/core';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueKeyOverHttp } from '../support/admin-keys.js';
import { type HostOnStores, startHostOnStores } from '../support/host-on-stores.js';
import { pollUntil } from '../support/poll-until.js';

const ADMIN_TOKEN = 'failing-open-admin-token-0123456789';
const COUNTED = '/api/v1/dossier/manifest';

interface Readiness {
  status: number;
  body: { status?: string; checks?: Record<string, string>; error?: string; details?: Array<{ path: string; message: string }> };
}

describe('readiness of a Node host whose Redis answers PING but refuses every decision', () => {
  let stores: HostOnStores | undefined;
  let admin: IORedis;
  let base = '';

  beforeAll(async () => {
    stores = await startHostOnStores({ ADMIN_TOKEN });
    base = stores.base;
    admin = new IORedis(stores.redis.url, { maxRetriesPerRequest: 1 });
  }, 120_000);

  afterAll(async () => {
    admin?.disconnect();
    await stores?.stop();
  });

  const readyz = async (): Promise<Readiness> => {
    const response = await fetch(`${base}/readyz`);
    return { status: response.status, body: (await response.json()) as Readiness['body'] };
  };
  const call = (key: string) => fetch(`${base}${COUNTED}`, { headers: { 'x-api-key': key } });

  /** Calls (each must be answered 200) until /readyz answers `status`, at most `rounds` times 200 ms. */
  async function callUntilReadiness(key: string, status: number, rounds = 100): Promise<Readiness> {
    let last = await readyz();
    for (let i = 0; i < rounds && last.status !== status; i++) {
      expect((await call(key)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      last = await readyz();
    }
    return last;
  }

  it('ready; 503 naming limits once decisions have failed open for the window; ready again once one is made', async () => {
    const key = await issueKeyOverHttp(base, ADMIN_TOKEN, { email: 'oom@example.com' });
    expect((await call(key)).headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(await callUntilReadiness(key, 200)).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', limits: 'ok' } } });

    await admin.config('SET', 'min-replicas-to-write', '1');
    expect(await admin.ping()).toBe('PONG');
    // Decisions now fail: the call is served, failing open (no limit headers).
    const failedOpen = await call(key);
    expect(failedOpen.status).toBe(200);
    expect(failedOpen.headers.get('x-ratelimit-limit')).toBeNull();

    const down = await callUntilReadiness(key, 503);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ error: 'not_ready', details: [{ path: 'limits', message: expect.stringMatching(/^key-limit decisions fail open/) }] });
    expect(JSON.stringify(down.body)).not.toContain(String(stores?.redis.port));
    expect(FAIL_OPEN_NOT_READY_MS).toBe(5_000);
    // The alarm line reaches this process through the host's stdout pipe, which is read apart
    // from the /readyz socket: the answer can come first.
    expect(await pollUntil(async () => stores?.host.output().includes('ratelimit.failing_open'), true, 5_000, 50)).toBe(true);

    await admin.config('SET', 'min-replicas-to-write', '0');
    let decided = false;
    for (let i = 0; i < 50 && !decided; i++) {
      decided = (await call(key)).headers.get('x-ratelimit-limit') !== null;
      if (!decided) await new Promise((r) => setTimeout(r, 100));
    }
    expect(decided).toBe(true);
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', limits: 'ok' } } });
  }, 120_000);
});
