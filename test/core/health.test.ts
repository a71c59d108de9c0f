/**
 * GET /healthz and GET /readyz through createService (docs/decisions.md §8, "Health and
 * readiness"): public, counting nowhere, outside the per-IP window; readiness runs every probe,
 * bounded, and answers 503 not_ready naming each failed one. On real PostgreSQL and Redis:
 * test/faults/readiness.test.ts.
 */
import type { Probe } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

const ok = (name: string): Probe => ({ name, check: async () => {} });
const failing = (name: string, message: string): Probe => ({
  name,
  check: async () => {
    throw new Error(message);
  },
});

describe('health probes', () => {
  it('/healthz answers 200 {status: ok}, no-store, beyond any per-IP window, counting nothing', async () => {
    const t = setup({ config: { publicRateLimitPerMinute: 1 } });
    for (let i = 0; i < 5; i++) {
      const res = await t.fetch('/healthz', {}, { clientIp: '198.51.100.1' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    // The public routes' window was untouched by the probes.
    expect((await t.fetch('/api/v1', {}, { clientIp: '198.51.100.1' })).status).toBe(200);
  });

  it('/readyz without probes (memory storage) is ready', async () => {
    const t = setup();
    const res = await t.fetch('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: {} });
  });

  it('/readyz names each check; a failed one is 503 not_ready with details and Retry-After', async () => {
    const good = setup({ probes: [ok('database'), ok('limits')] });
    expect(await (await good.fetch('/readyz')).json()).toEqual({ status: 'ready', checks: { database: 'ok', limits: 'ok' } });
    const bad = setup({ probes: [ok('database'), failing('limits', 'redis unreachable')] });
    const res = await bad.fetch('/readyz');
    const body = await expectError(res, 503, 'not_ready');
    expect(body.details).toEqual([{ path: 'limits', message: 'redis unreachable' }]);
    expect(res.headers.get('retry-after')).toBe('5');
  });

  it('/readyz bounds a hung probe', async () => {
    const hung: Probe = { name: 'database', check: () => new Promise(() => {}) };
    const t = setup({ probes: [hung] });
    const body = await expectError(await t.fetch('/readyz'), 503, 'not_ready');
    expect(body.details).toEqual([{ path: 'database', message: expect.stringMatching(/no answer within/) }]);
  }, 10_000);
});
