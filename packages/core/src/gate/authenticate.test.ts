/**
 * The key gate's checks (authenticate.ts) in the order docs/decisions.md §3 fixes, each with
 * the status and code a client acts on.
 */
import { describe, expect, it } from 'vitest';
import { pureHasher } from '../defaults.js';
import { ApiError } from '../errors/api-error.js';
import type { ApiKey, Customer, KeyWithCustomer } from '../ports/index.js';
import { AccountsMismatch, GRACE_MS, presentedKey, principalOf } from './authenticate.js';
import { generateApiKey } from './key-format.js';

const request = (key?: string) => new Request('http://x.test/api/v1/search', key === undefined ? {} : { headers: { 'x-api-key': key } });

function refusal(run: () => unknown): [number, string, unknown] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    return [e.status, e.code, e.publicMessage];
  }
  throw new Error('not refused');
}

describe('presentedKey', () => {
  it('401 missing_api_key without the header or with an empty one', () => {
    expect(refusal(() => presentedKey(request(), pureHasher))).toEqual([401, 'missing_api_key', 'send your key in the X-API-Key header']);
    expect(refusal(() => presentedKey(request(''), pureHasher))).toEqual([401, 'missing_api_key', 'send your key in the X-API-Key header']);
  });

  it('401 invalid_api_key for a bad shape or checksum, before any store read', () => {
    const key = generateApiKey('live');
    expect(refusal(() => presentedKey(request('ck_live_nope'), pureHasher))).toEqual([401, 'invalid_api_key', 'the key is not a valid active key']);
    expect(refusal(() => presentedKey(request(`${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`), pureHasher))[1]).toBe('invalid_api_key');
  });

  it('a well-formed key: its SHA-256 and its environment', () => {
    for (const env of ['live', 'test'] as const) {
      const key = generateApiKey(env);
      expect(presentedKey(request(key), pureHasher)).toEqual({ hash: pureHasher.sha256Hex(key), environment: env });
    }
  });
});

const HASH = 'h'.repeat(64);
const customer = (over: Partial<Customer> = {}): Customer => ({
  id: 'cust_1',
  email: 'a@b.co',
  name: null,
  tier: 'self_serve_99',
  status: 'active',
  overage: 'block',
  limits: null,
  past_due_since: null,
  created_at: new Date(0),
  ...over,
});
const apiKey = (over: Partial<ApiKey> = {}): ApiKey => ({
  id: 'key_1',
  customer_id: 'cust_1',
  hash: HASH,
  display_prefix: 'ck_test_abcd',
  environment: 'test',
  status: 'active',
  created_at: new Date(0),
  ...over,
});
const row = (key: Partial<ApiKey> = {}, cust: Partial<Customer> = {}): KeyWithCustomer => ({ key: apiKey(key), customer: customer(cust) });
const presented = { hash: HASH, environment: 'test' as const };

describe('principalOf', () => {
  it('an active key of a customer in good standing: the principal with its tier’s policy', () => {
    const found = row();
    const principal = principalOf(found, presented);
    expect(principal.key).toBe(found.key);
    expect(principal.customer).toBe(found.customer);
    expect(principal.policy).toEqual({
      burstPerMinute: expect.any(Number),
      concurrency: expect.any(Number),
      quotaPerMonth: 50_000,
      quotaMode: 'block',
      batchMax: expect.any(Number),
    });
  });

  it('401 invalid_api_key for an unknown key or a key of the other environment', () => {
    expect(refusal(() => principalOf(null, presented))).toEqual([401, 'invalid_api_key', 'the key is not a valid active key']);
    expect(refusal(() => principalOf(row({ environment: 'live' }), presented))[1]).toBe('invalid_api_key');
  });

  it('a row for another key or another customer is the store’s fault: AccountsMismatch, never a principal', () => {
    expect(() => principalOf(row({ hash: 'x'.repeat(64) }), presented)).toThrow(AccountsMismatch);
    expect(() => principalOf(row({ customer_id: 'cust_2' }), presented)).toThrow(AccountsMismatch);
    const error = new AccountsMismatch();
    expect([error.name, error.message]).toEqual(['AccountsMismatch', 'the accounts store answered a key lookup with another key']);
    // The mismatch is judged before the environment: a foreign row of the other environment is still a fault.
    expect(() => principalOf(row({ hash: 'x'.repeat(64), environment: 'live' }), presented)).toThrow(AccountsMismatch);
  });

  it('401 revoked_api_key for a rotated or revoked key, before the customer’s standing', () => {
    for (const status of ['rotated', 'revoked'] as const) {
      expect(refusal(() => principalOf(row({ status }), presented))).toEqual([401, 'revoked_api_key', 'this key was rotated or revoked']);
      expect(refusal(() => principalOf(row({ status }, { status: 'past_due' }), presented))[1]).toBe('revoked_api_key');
    }
  });

  it('402 payment_required for a suspended key or a customer not in good standing', () => {
    const message = 'the account has an unpaid invoice; pay it to restore access';
    expect(refusal(() => principalOf(row({ status: 'suspended' }), presented))).toEqual([402, 'payment_required', message]);
    for (const status of ['past_due', 'canceled'] as const)
      expect(refusal(() => principalOf(row({}, { status }), presented))).toEqual([402, 'payment_required', message]);
  });

  it('the grace window is 7 days', () => {
    expect(GRACE_MS).toBe(604_800_000);
  });
});
