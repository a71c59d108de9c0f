/** Customers and their keys in memory (the CustomersAndKeys slice; PostgreSQL's is accounts/customers-and-keys.ts). */
import type { ApiKey, Customer, CustomersAndKeys, KeyWithCustomer, NewCustomer, NewKey } from '../../ports/index.js';
import type { AccountTables } from './tables.js';

export function storeKey(tables: AccountTables, customerId: string, key: NewKey): ApiKey {
  if (tables.keyIdByHash.has(key.hash)) throw new Error('duplicate key hash');
  const stored: ApiKey = { ...key, customer_id: customerId, status: 'active' };
  tables.keys.set(stored.id, stored);
  tables.keyIdByHash.set(stored.hash, stored.id);
  return stored;
}

export function insertCustomer(tables: AccountTables, input: NewCustomer, stripeCustomerId: string | null = null): Customer {
  if (tables.customers.has(input.id)) throw new Error('duplicate customer id');
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
    stripe_customer_id: stripeCustomerId,
  };
  tables.customers.set(customer.id, customer);
  return customer;
}

export function customersAndKeys(tables: AccountTables): CustomersAndKeys {
  const { customers, keys, keyIdByHash } = tables;
  return {
    async findKeyByHash(hash) {
      const id = keyIdByHash.get(hash);
      const key = id === undefined ? undefined : keys.get(id);
      const customer = key && customers.get(key.customer_id);
      // Copies, so a caller can never mutate the store through a returned record.
      return key && customer ? { key: { ...key }, customer: { ...customer } } : null;
    },
    async findKeyById(keyId) {
      const key = keys.get(keyId);
      const customer = key && customers.get(key.customer_id);
      return key && customer ? { key: { ...key }, customer: { ...customer } } : null;
    },
    async createCustomerWithKey(input: NewCustomer, key: NewKey): Promise<KeyWithCustomer> {
      if (keyIdByHash.has(key.hash)) throw new Error('duplicate key hash');
      const customer = insertCustomer(tables, input);
      return { customer: { ...customer }, key: { ...storeKey(tables, customer.id, key) } };
    },
    async addKey(customerId, key) {
      if (!customers.has(customerId)) throw new Error(`no customer ${customerId}`);
      return { ...storeKey(tables, customerId, key) };
    },
    async addKeyCapped(customerId, key, maxActive) {
      if (!customers.has(customerId)) throw new Error(`no customer ${customerId}`);
      const active = [...keys.values()].filter((k) => k.customer_id === customerId && k.status === 'active').length;
      return active >= maxActive ? null : { ...storeKey(tables, customerId, key) };
    },
    async getCustomer(customerId) {
      const c = customers.get(customerId);
      return c ? { ...c } : null;
    },
    async listKeys(customerId) {
      return [...keys.values()].filter((k) => k.customer_id === customerId).map((k) => ({ ...k }));
    },
    async findCustomersByEmail(email) {
      const wanted = email.toLowerCase();
      return [...customers.values()].filter((c) => c.email.toLowerCase() === wanted).map((c) => ({ ...c }));
    },
    async rotateKey(customerId, keyId, newKey) {
      const old = keys.get(keyId);
      if (!old || old.customer_id !== customerId || old.status !== 'active') return null;
      if (keyIdByHash.has(newKey.hash)) throw new Error('duplicate key hash');
      old.status = 'rotated';
      const key = storeKey(tables, customerId, newKey);
      return { old: { ...old }, key: { ...key } };
    },
    async revokeKey(customerId, keyId) {
      const key = keys.get(keyId);
      if (!key || key.customer_id !== customerId) return null;
      if (key.status === 'active' || key.status === 'suspended') key.status = 'revoked';
      return { ...key };
    },
  };
}
