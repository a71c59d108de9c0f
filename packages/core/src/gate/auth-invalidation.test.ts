import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryAccounts } from '../memory/accounts.js';
import type { LogRecord } from '../ports/index.js';
import { invalidatingAccounts } from './auth-invalidation.js';
import { issueCustomerKey, newKeyRecord } from './issue-key.js';
import { KeyCache } from './key-cache.js';

function setup(bump: () => Promise<void>) {
  const accounts = createMemoryAccounts();
  const cache = new KeyCache();
  const logs: LogRecord[] = [];
  const alarms: string[] = [];
  const limiter = { bumpAuthEpoch: bump } as never;
  const wrapped = invalidatingAccounts(accounts, limiter, cache, { log: (record) => logs.push(record) }, { raise: (kind) => alarms.push(kind) });
  return { accounts, wrapped, cache, logs, alarms };
}

describe('invalidatingAccounts', () => {
  it('moves the epoch on after each change the gate reads, and not for reads or changes that did nothing', async () => {
    let bumps = 0;
    const { accounts, wrapped } = setup(async () => {
      bumps++;
    });
    const now = new Date('2026-03-10T12:00:00Z');
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, now);
    await wrapped.findKeyByHash(issued.key.hash);
    await wrapped.getCustomer(issued.customer.id);
    expect(bumps).toBe(0);
    expect(await wrapped.revokeKey(issued.customer.id, 'key_nope')).toBeNull();
    expect(bumps).toBe(0);
    await wrapped.setOverage(issued.customer.id, 'bill');
    expect(bumps).toBe(1);
    const rotated = await wrapped.rotateKey(issued.customer.id, issued.key.id, newKeyRecord('test', now).record);
    expect(bumps).toBe(2);
    await wrapped.revokeKey(issued.customer.id, rotated?.key.id as string);
    expect(bumps).toBe(3);
    expect(await wrapped.suspendExpiredGrace(now, 1)).toBe(0);
    expect(bumps).toBe(3);
  });

  it('when the epoch cannot move: drops this instance’s cache, logs and raises the alarm, and the change still stands', async () => {
    const { accounts, wrapped, cache, logs, alarms } = setup(() => Promise.reject(new Error('redis away')));
    const now = new Date('2026-03-10T12:00:00Z');
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, now);
    cache.set(issued.key.hash, { key: issued.key, customer: issued.customer }, 'e1', now.getTime());
    expect(await wrapped.revokeKey(issued.customer.id, issued.key.id)).toMatchObject({ status: 'revoked' });
    expect(cache.size).toBe(0);
    expect(logs.map((record) => record.kind)).toContain('auth.invalidation_failed');
    expect(alarms).toContain('auth.invalidation_failed');
  });

  describe('retrying a bump that failed', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    async function failedOnce(results: Array<'ok' | 'fail'>) {
      vi.useFakeTimers();
      let calls = 0;
      const t = setup(() => {
        const result = calls === 0 ? 'fail' : (results[calls - 1] ?? 'fail');
        calls++;
        return result === 'ok' ? Promise.resolve() : Promise.reject(new Error('redis away'));
      });
      const issued = await issueCustomerKey(t.accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date(0));
      await t.wrapped.setOverage(issued.customer.id, 'bill');
      return { ...t, issued, calls: () => calls };
    }

    it('logs the failure with its error, then retries every second until the bump goes through', async () => {
      const t = await failedOnce(['fail', 'ok']);
      expect(t.logs).toEqual([{ level: 'error', kind: 'auth.invalidation_failed', error: 'redis away' }]);
      expect(t.calls()).toBe(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(t.calls()).toBe(1);
      t.cache.set('h', { key: t.issued.key, customer: t.issued.customer }, 'e', 0);
      await vi.advanceTimersByTimeAsync(1);
      expect(t.calls()).toBe(2);
      // The retry failed: the cache is dropped again.
      expect(t.cache.size).toBe(0);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(t.calls()).toBe(3);
      expect(t.logs.at(-1)).toEqual({ level: 'info', kind: 'auth.invalidation_recovered', attempts: 2 });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(t.calls()).toBe(3);
    });

    it('gives up after 60 retries; a change meanwhile does not start a second series', async () => {
      const t = await failedOnce([]);
      await t.wrapped.setOverage(t.issued.customer.id, 'block');
      expect(t.calls()).toBe(2);
      expect(t.alarms).toEqual(['auth.invalidation_failed', 'auth.invalidation_failed']);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(t.calls()).toBe(62);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(t.calls()).toBe(62);
      expect(t.logs.filter((r) => r.kind === 'auth.invalidation_recovered')).toEqual([]);
    });
  });

  it('a non-Error failure is logged as text; billing changes and grace suspensions bump only when they changed something', async () => {
    const seen: string[] = [];
    const { accounts, logs } = setup(() => Promise.reject('plain'));
    const limiter = {
      bumpAuthEpoch: async () => {
        seen.push('bump');
      },
    } as never;
    const stub = {
      ...accounts,
      applyBillingChange: async (input: { eventId: string }) => (input.eventId === 'applied' ? 'applied' : 'stale'),
      suspendExpiredGrace: async (_now: Date, n: number) => n,
    } as never;
    const wrapped = invalidatingAccounts(stub, limiter, new KeyCache(), { log() {} }, { raise() {} });
    await wrapped.applyBillingChange({ eventId: 'stale', eventCreated: new Date(0), stripeCustomerId: 'cus' });
    expect(seen).toEqual([]);
    await wrapped.applyBillingChange({ eventId: 'applied', eventCreated: new Date(0), stripeCustomerId: 'cus' });
    expect(seen).toEqual(['bump']);
    await wrapped.suspendExpiredGrace(new Date(0), 0);
    expect(seen).toEqual(['bump']);
    await wrapped.suspendExpiredGrace(new Date(0), 2);
    expect(seen).toEqual(['bump', 'bump']);
    const failing = setup(() => Promise.reject('plain'));
    const issued = await issueCustomerKey(failing.accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date(0));
    await failing.wrapped.setOverage(issued.customer.id, 'bill');
    expect(failing.logs).toEqual([{ level: 'error', kind: 'auth.invalidation_failed', error: 'plain' }]);
    expect(logs).toEqual([]);
  });
});
