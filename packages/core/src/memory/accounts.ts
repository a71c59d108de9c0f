/** Accounts in process memory: for the conformance suite, embedding and users' tests. */
import type { Accounts, ApiKey, Customer, Environment, KeyWithCustomer, NewCustomer, NewKey } from '../ports.js';

export interface MemoryAccounts extends Accounts {
  /** Direct access for tests and seeding. */
  readonly customers: Map<string, Customer>;
  readonly keys: Map<string, ApiKey>;
}

export function createMemoryAccounts(): MemoryAccounts {
  const customers = new Map<string, Customer>();
  const keys = new Map<string, ApiKey>();
  const keyIdByHash = new Map<string, string>();
  const usage = new Map<string, number>();

  const usageKey = (customerId: string, environment: Environment, month: string) => `${customerId}:${environment}:${month}`;

  function storeKey(customerId: string, key: NewKey): ApiKey {
    if (keyIdByHash.has(key.hash)) throw new Error('duplicate key hash');
    const stored: ApiKey = { ...key, customer_id: customerId, status: 'active' };
    keys.set(stored.id, stored);
    keyIdByHash.set(stored.hash, stored.id);
    return stored;
  }

  return {
    customers,
    keys,
    async findKeyByHash(hash) {
      const id = keyIdByHash.get(hash);
      const key = id === undefined ? undefined : keys.get(id);
      const customer = key && customers.get(key.customer_id);
      // Copies, so a caller can never mutate the store through a returned record.
      return key && customer ? { key: { ...key }, customer: { ...customer } } : null;
    },
    async createCustomerWithKey(input: NewCustomer, key: NewKey): Promise<KeyWithCustomer> {
      if (customers.has(input.id)) throw new Error('duplicate customer id');
      const customer: Customer = {
        id: input.id,
        email: input.email,
        name: input.name,
        tier: input.tier,
        status: 'active',
        overage: input.overage ?? 'block',
        limits: input.limits ?? null,
        past_due_since: null,
        created_at: input.created_at,
      };
      customers.set(customer.id, customer);
      return { customer: { ...customer }, key: { ...storeKey(customer.id, key) } };
    },
    async addKey(customerId, key) {
      if (!customers.has(customerId)) throw new Error(`no customer ${customerId}`);
      return { ...storeKey(customerId, key) };
    },
    async getCustomer(customerId) {
      const c = customers.get(customerId);
      return c ? { ...c } : null;
    },
    async listKeys(customerId) {
      return [...keys.values()].filter((k) => k.customer_id === customerId).map((k) => ({ ...k }));
    },
    async suspendExpiredGrace(now, graceMs) {
      let count = 0;
      for (const customer of customers.values()) {
        if (customer.status !== 'past_due' || !customer.past_due_since) continue;
        if (now.getTime() - customer.past_due_since.getTime() < graceMs) continue;
        for (const key of keys.values()) {
          if (key.customer_id === customer.id && key.status === 'active') {
            key.status = 'suspended';
            count++;
          }
        }
      }
      return count;
    },
    async addUsage(customerId, environment, month, delta) {
      const k = usageKey(customerId, environment, month);
      usage.set(k, (usage.get(k) ?? 0) + delta);
    },
    async getUsage(customerId, environment, month) {
      return usage.get(usageKey(customerId, environment, month)) ?? 0;
    },
  };
}
