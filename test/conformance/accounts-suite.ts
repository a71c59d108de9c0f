/** Conformance assertions for any Accounts implementation. */
import type { Accounts, NewKey } from '@catalogue/core';

/** The members this suite covers; implementations may offer more. */
type CoveredAccounts = Pick<Accounts, 'findKeyByHash' | 'createCustomerWithKey' | 'addKey' | 'getCustomer' | 'listKeys' | 'suspendExpiredGrace' | 'addUsage' | 'getUsage'>;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export interface BuiltAccounts {
  accounts: CoveredAccounts;
  /** Marks a customer past_due since `since` (the webhook path is not part of the port yet). */
  markPastDue(customerId: string, since: Date): Promise<void>;
  close(): Promise<void>;
}

const created = new Date('2026-01-02T03:04:05.000Z');
const key = (id: string, hash: string, environment: 'live' | 'test' = 'live'): NewKey => ({ id, hash, display_prefix: `ck_${environment}_abcd`, environment, created_at: created });

export function describeAccountsConformance(name: string, build: () => Promise<BuiltAccounts>): void {
  describe(`Accounts conformance: ${name}`, () => {
    let built: BuiltAccounts;
    beforeAll(async () => {
      built = await build();
    });
    afterAll(async () => {
      await built?.close();
    });

    it('creates a customer with its key and finds it by hash', async () => {
      const { accounts } = built;
      const made = await accounts.createCustomerWithKey(
        { id: 'cust_1', email: 'a@example.com', name: 'A', tier: 'contract_2000', limits: { batch_max: 250 }, created_at: created },
        key('key_1', 'a'.repeat(64)),
      );
      expect(made.customer).toMatchObject({ id: 'cust_1', email: 'a@example.com', name: 'A', tier: 'contract_2000', status: 'active', overage: 'block', limits: { batch_max: 250 }, past_due_since: null, created_at: created });
      expect(made.key).toEqual({ id: 'key_1', customer_id: 'cust_1', hash: 'a'.repeat(64), display_prefix: 'ck_live_abcd', environment: 'live', status: 'active', created_at: created });
      expect(await accounts.findKeyByHash('a'.repeat(64))).toEqual(made);
      expect(await accounts.findKeyByHash('b'.repeat(64))).toBeNull();
      expect(await accounts.getCustomer('cust_1')).toEqual(made.customer);
      expect(await accounts.getCustomer('cust_nope')).toBeNull();
    });

    it('adds keys, lists them, and refuses a duplicate hash or an unknown customer', async () => {
      const { accounts } = built;
      const second = await accounts.addKey('cust_1', key('key_2', 'c'.repeat(64), 'test'));
      expect(second).toMatchObject({ id: 'key_2', customer_id: 'cust_1', environment: 'test', status: 'active' });
      expect((await accounts.listKeys('cust_1')).map((k) => k.id).sort()).toEqual(['key_1', 'key_2']);
      await expect(accounts.addKey('cust_1', key('key_3', 'c'.repeat(64)))).rejects.toThrow();
      await expect(accounts.addKey('cust_missing', key('key_4', 'd'.repeat(64)))).rejects.toThrow();
      expect(await accounts.listKeys('cust_missing')).toEqual([]);
    });

    it('suspends active keys once the grace window has ended', async () => {
      const { accounts } = built;
      await accounts.createCustomerWithKey({ id: 'cust_2', email: 'b@example.com', name: null, tier: 'self_serve_49', created_at: created }, key('key_5', 'e'.repeat(64)));
      await built.markPastDue('cust_2', new Date('2026-03-01T00:00:00Z'));
      const week = 7 * 86_400_000;
      expect(await accounts.suspendExpiredGrace(new Date('2026-03-07T23:59:59Z'), week)).toBe(0);
      expect(await accounts.suspendExpiredGrace(new Date('2026-03-08T00:00:00Z'), week)).toBe(1);
      expect((await accounts.findKeyByHash('e'.repeat(64)))?.key.status).toBe('suspended');
      expect((await accounts.findKeyByHash('a'.repeat(64)))?.key.status).toBe('active');
    });

    it('adds durable monthly usage per customer, environment and month', async () => {
      const { accounts } = built;
      await accounts.addUsage('cust_1', 'live', '2026-06', 5);
      await accounts.addUsage('cust_1', 'live', '2026-06', 7);
      await accounts.addUsage('cust_1', 'test', '2026-06', 1);
      expect(await accounts.getUsage('cust_1', 'live', '2026-06')).toBe(12);
      expect(await accounts.getUsage('cust_1', 'test', '2026-06')).toBe(1);
      expect(await accounts.getUsage('cust_1', 'live', '2026-07')).toBe(0);
    });
  });
}
