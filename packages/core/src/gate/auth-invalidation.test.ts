import { describe, expect, it } from 'vitest';
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
});
