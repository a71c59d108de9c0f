/** Issuing a key (issue-key.ts): what is stored for a new key and a new customer. */
import { describe, expect, it } from 'vitest';
import { createMemoryAccounts } from '../memory/accounts.js';
import { sha256Hex } from './hash.js';
import { issueCustomerKey, newKeyRecord } from './issue-key.js';
import { generateApiKey } from './key-format.js';

const withChecksumKey = generateApiKey('test');

describe('newKeyRecord and issueCustomerKey', () => {
  it('a key record: key_ id, the plaintext’s hash and 12-character prefix, never the plaintext', () => {
    const now = new Date(0);
    const made = newKeyRecord('test', now, withChecksumKey);
    expect(made.plaintext).toBe(withChecksumKey);
    expect(made.record).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      hash: sha256Hex(withChecksumKey),
      display_prefix: withChecksumKey.slice(0, 12),
      environment: 'test',
      created_at: now,
    });
    expect(newKeyRecord('live', now).plaintext).toMatch(/^ck_live_/);
  });

  it('a new customer: cust_ id, block mode and no limit overrides unless given', async () => {
    const accounts = createMemoryAccounts();
    const plain = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date(0));
    expect(plain.customer).toMatchObject({ id: expect.stringMatching(/^cust_[0-9A-Z]{26}$/), name: null, overage: 'block', limits: null });
    expect(plain.key.customer_id).toBe(plain.customer.id);
    const given = await issueCustomerKey(
      accounts,
      { email: 'b@b.co', name: 'B', tier: 'contract_2000', environment: 'live', overage: 'bill', limits: { burst_per_minute: 5 } },
      new Date(0),
    );
    expect(given.customer).toMatchObject({ name: 'B', overage: 'bill', limits: { burst_per_minute: 5 } });
    expect(given.plaintext).toMatch(/^ck_live_/);
  });
});
