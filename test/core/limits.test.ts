import type { Limiter } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

const get = (t: ReturnType<typeof setup>, key: string, path = '/api/v1/masters/113') => t.fetch(path, { headers: { 'x-api-key': key } });

describe('burst: sliding window per minute', () => {
  it('admits exactly the tier burst in a window, then 429 with the spec headers and body', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 60; i++) {
      const res = await get(t, key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(59 - i));
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-03-10T10:01:00Z') / 1000));
    }
    const refused = await get(t, key);
    const body = await expectError(refused, 429, 'rate_limited');
    expect(body).toEqual({
      error: 'rate_limited',
      message: expect.any(String),
      retry_after_seconds: 60,
      reason: 'burst',
      request_id: refused.headers.get('x-request-id'),
    });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-03-10T10:01:00Z') / 1000));
  });

  it('slides: each call leaves the window exactly 60 s after it was made', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 30; i++) expect((await get(t, key)).status).toBe(200);
    t.clock.set('2026-03-10T10:00:30Z');
    for (let i = 0; i < 30; i++) expect((await get(t, key)).status).toBe(200);
    t.clock.set('2026-03-10T10:00:59.999Z');
    const refused = await get(t, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    // At 10:01:00 the first 30 calls leave the window: exactly 30 more fit, no more.
    t.clock.set('2026-03-10T10:01:00Z');
    let admitted = 0;
    while ((await get(t, key)).status === 200) admitted++;
    expect(admitted).toBe(30);
    t.clock.set('2026-03-10T10:01:30Z');
    const next = await get(t, key);
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('29');
    // Two minutes later nothing counts any more.
    t.clock.set('2026-03-10T10:03:00Z');
    expect((await get(t, key)).headers.get('x-ratelimit-remaining')).toBe('59');
  });

  it('steady traffic at the rate passes', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 300; i++) {
      expect((await get(t, key)).status).toBe(200);
      t.clock.advance(1000);
    }
  });

  it('counts per customer and environment: a second key of the customer shares the window', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const [customer] = [...t.accounts.customers.values()];
    const { newKeyRecord } = await import('@catalogue/core');
    const second = newKeyRecord('test', new Date(t.clock.now()));
    await t.accounts.addKey(customer!.id, second.record);
    for (let i = 0; i < 60; i++) await get(t, i % 2 ? key : second.plaintext);
    expect((await get(t, second.plaintext)).status).toBe(429);
    const live = newKeyRecord('live', new Date(t.clock.now()));
    await t.accounts.addKey(customer!.id, live.record);
    expect((await get(t, live.plaintext)).status).toBe(200);
  });
});

describe('IETF RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('name the burst window and the monthly quota, in structured-field syntax, beside X-RateLimit-*', async () => {
    const t = setup({ now: '2026-02-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const first = await get(t, key);
    expect(first.status).toBe(200);
    // February 2026 has 28 days: w is the month's length; t the seconds until 00:00 UTC on 1 March.
    const monthSeconds = 28 * 86_400;
    const untilMarch = (Date.parse('2026-03-01T00:00:00Z') - Date.parse('2026-02-10T10:00:00Z')) / 1000;
    expect(first.headers.get('ratelimit-policy')).toBe(`"burst";q=60;w=60, "quota";q=10000;w=${monthSeconds}`);
    expect(first.headers.get('ratelimit')).toBe(`"burst";r=59;t=60, "quota";r=9999;t=${untilMarch}`);
    t.clock.advance(15_000);
    const second = await get(t, key);
    expect(second.headers.get('ratelimit')).toBe(`"burst";r=58;t=45, "quota";r=9998;t=${untilMarch - 15}`);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('a burst refusal says r=0 and the Retry-After seconds; public routes name only their per-IP burst', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 60; i++) await get(t, key);
    const refused = await get(t, key);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toMatch(/^"burst";r=0;t=60, "quota";r=9940;t=\d+$/);
    const open = await t.fetch('/api/v1');
    expect(open.headers.get('ratelimit-policy')).toBe('"burst";q=60;w=60');
    expect(open.headers.get('ratelimit')).toBe('"burst";r=59;t=60');
  });
});

describe('RateLimit agrees with RateLimit-Policy (issue 28 item 5)', () => {
  /** The seconds of each item of a structured-field list, by name and parameter. */
  const items = (field: string | null) =>
    Object.fromEntries(
      (field ?? '').split(', ').map((item) => {
        const [name, ...params] = item.split(';');
        return [name, Object.fromEntries(params.map((p) => p.split('=').map((x, i) => (i ? Number(x) : x))))];
      }),
    ) as Record<string, Record<string, number>>;

  it('t never exceeds w, also when the call falls between two whole seconds', async () => {
    const t = setup({ now: '2026-03-10T10:00:00.300Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 61; i++) {
      const res = await get(t, key);
      const policy = items(res.headers.get('ratelimit-policy'));
      const current = items(res.headers.get('ratelimit'));
      for (const name of ['"burst"', '"quota"']) {
        expect(current[name]?.t, `${name} ${res.headers.get('ratelimit')}`).toBeLessThanOrEqual(policy[name]?.w as number);
        expect(current[name]?.t).toBeGreaterThanOrEqual(0);
      }
      t.clock.advance(250);
    }
  });

  it('/usage names the quota policy too, with what is left of it', async () => {
    const t = setup({ now: '2026-02-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 3; i++) await get(t, key);
    const usage = await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    expect(usage.status).toBe(200);
    const untilMarch = (Date.parse('2026-03-01T00:00:00Z') - Date.parse('2026-02-10T10:00:00Z')) / 1000;
    expect(usage.headers.get('ratelimit-policy')).toBe(`"burst";q=60;w=60, "quota";q=10000;w=${28 * 86_400}`);
    expect(usage.headers.get('ratelimit')).toBe(`"burst";r=57;t=60, "quota";r=9997;t=${untilMarch}`);
  });
});

describe('monthly quota', () => {
  it('block: the call after the quota answers 429 reason quota until 00:00 UTC on the 1st', async () => {
    const t = setup({ now: '2026-03-31T20:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const [customer] = [...t.accounts.customers.values()];
    // One call a second: steady traffic under the burst, 10,000 calls fit before midnight.
    for (let i = 0; i < 10_000; i++) {
      const res = await get(t, key);
      if (res.status !== 200) throw new Error(`call ${i} answered ${res.status}`);
      t.clock.advance(1000);
    }
    t.clock.set('2026-03-31T23:59:59Z');
    const refused = await get(t, key);
    const body = await expectError(refused, 429, 'rate_limited');
    expect(body.reason).toBe('quota');
    expect(body.retry_after_seconds).toBe(1);
    // The IETF fields say which limit refused: the quota has nothing left until the 1st (1 s away).
    expect(refused.headers.get('ratelimit')).toMatch(/^"burst";r=\d+;t=\d+, "quota";r=0;t=1$/);
    const usage = await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    expect(await usage.json()).toMatchObject({ calls: 10_000, quota: 10_000, remaining: 0, month: '2026-03', customer_id: customer!.id });
    t.clock.set('2026-04-01T00:00:00Z');
    expect((await get(t, key)).status).toBe(200);
    expect(await (await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).json()).toMatchObject({ calls: 1, month: '2026-04' });
  });

  it('bill: calls go on past the quota and are reported as overage', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49', overage: 'bill' });
    const [customer] = [...t.accounts.customers.values()];
    // The month's first 9,998 calls through the limiter itself (the tier's quota and mode, a
    // burst that does not refuse them), then 5 through the route: the last 3 are past the
    // 10,000 quota and, in bill mode, answered, counted and reported as overage.
    const policy = { burstPerMinute: 1_000_000, concurrency: 2, quotaPerMonth: 10_000, quotaMode: 'bill' as const };
    for (let i = 0; i < 9_998; i++) {
      const d = await t.limiter.admit({ customerId: customer!.id, environment: 'test', keyId: 'k', policy, now: t.clock.now() });
      if (!d.allowed) throw new Error(`limiter call ${i} refused`);
      await d.release();
    }
    t.clock.advance(61_000); // out of their burst window: only the quota is left to decide
    for (let i = 0; i < 5; i++) expect((await get(t, key)).status).toBe(200);
    const usage = await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    expect(await usage.json()).toMatchObject({ calls: 10_003, quota: 10_000, remaining: 0, overage: 'bill', overage_calls: 3, tier: 'self_serve_49' });
    expect(usage.headers.get('ratelimit')).toMatch(/"quota";r=0;/);
  });

  it('usage does not count and 429s do not count', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey({ tier: 'self_serve_49' });
    for (let i = 0; i < 5; i++) await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    for (let i = 0; i < 70; i++) await get(t, key);
    const usage = await (await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).json();
    expect(usage).toMatchObject({ calls: 60, quota: 10_000, remaining: 9_940, overage: 'block', tier: 'self_serve_49' });
  });

  it('a batch counts as one unit', async () => {
    const t = setup({ now: '2026-03-10T10:00:00Z' });
    const key = await t.issueKey();
    const res = await t.fetch('/api/v1/masters/batch', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [113, 500, 501, 1660109, 9] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(await (await t.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).json()).toMatchObject({ calls: 1 });
  });
});

describe('concurrency: per key, 60 s lease', () => {
  const slowService = () => ({ t: setup({ now: '2026-03-10T10:00:00Z' }) });

  it('the third in-flight call of a 2-slot key answers 429 reason concurrency; a slot frees on return', async () => {
    const { t } = slowService();
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const [customer] = [...t.accounts.customers.values()];
    const [stored] = [...t.accounts.keys.values()];
    const policy = { burstPerMinute: 60, concurrency: 2, quotaPerMonth: 10_000, quotaMode: 'block' as const };
    const req = { customerId: customer!.id, environment: 'test' as const, keyId: stored!.id, policy, now: t.clock.now() };
    const a = await t.limiter.admit(req);
    const b = await t.limiter.admit(req);
    expect([a.allowed, b.allowed]).toEqual([true, true]);
    const refused = await get(t, key);
    const body = await expectError(refused, 429, 'rate_limited');
    expect(body).toMatchObject({ error: 'rate_limited', message: expect.any(String), retry_after_seconds: 1, reason: 'concurrency' });
    await a.release();
    expect((await get(t, key)).status).toBe(200);
  });

  it('a lease that is never released frees at 60 s', async () => {
    const { t } = slowService();
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const [customer] = [...t.accounts.customers.values()];
    const [stored] = [...t.accounts.keys.values()];
    const policy = { burstPerMinute: 60, concurrency: 2, quotaPerMonth: 10_000, quotaMode: 'block' as const };
    const start = t.clock.now();
    await t.limiter.admit({ customerId: customer!.id, environment: 'test', keyId: stored!.id, policy, now: start });
    await t.limiter.admit({ customerId: customer!.id, environment: 'test', keyId: stored!.id, policy, now: start });
    t.clock.set(start + 59_999);
    expect((await get(t, key)).status).toBe(429);
    t.clock.set(start + 60_000);
    expect((await get(t, key)).status).toBe(200);
  });

  it('releases the slot after every answer, errors included', async () => {
    const { t } = slowService();
    const key = await t.issueKey({ tier: 'self_serve_49' });
    const [stored] = [...t.accounts.keys.values()];
    await get(t, key, '/api/v1/masters/999');
    await get(t, key, '/api/v1/search?nope=1');
    await get(t, key);
    await new Promise((r) => setTimeout(r, 0));
    expect(t.limiter.inFlight(stored!.id, t.clock.now())).toBe(0);
  });
});

describe('fail-open', () => {
  it('a throwing limiter lets the request through without limit headers, logs and alarms', async () => {
    const t = setup();
    const key = await t.issueKey();
    const broken: Partial<Limiter> = {
      admit: async () => {
        throw new Error('ECONNREFUSED 127.0.0.1:6379');
      },
    };
    Object.assign(t.limiter, broken);
    const res = await get(t, key);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    await get(t, key);
    expect(t.logs.filter((l) => l.kind === 'ratelimit.fail_open')).toHaveLength(2);
    expect(t.alarms.filter((a) => a.kind === 'ratelimit.fail_open')).toHaveLength(1);
    t.clock.advance(61_000);
    await get(t, key);
    expect(t.alarms.filter((a) => a.kind === 'ratelimit.fail_open')).toHaveLength(2);
  });
});

describe('public routes: per-IP limit', () => {
  it('limits GET /api/v1 per client IP', async () => {
    const t = setup({ config: { publicRateLimitPerMinute: 5 } });
    for (let i = 0; i < 5; i++) expect((await t.fetch('/api/v1', undefined, { clientIp: '198.51.100.1' })).status).toBe(200);
    const refused = await t.fetch('/api/v1/openapi.json', undefined, { clientIp: '198.51.100.1' });
    await expectError(refused, 429, 'rate_limited');
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await t.fetch('/api/v1', undefined, { clientIp: '198.51.100.2' })).status).toBe(200);
  });
});
