import { generateApiKey, sha256Hex } from '@catalogue/core';
import { describe, expect, it, vi } from 'vitest';
import { expectError, setup } from '../support/service.js';

describe('the key gate (401/402 in the stated order)', () => {
  it('missing header → 401 missing_api_key', async () => {
    const t = setup();
    await expectError(await t.fetch('/api/v1/masters/113'), 401, 'missing_api_key');
    await expectError(await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': '' } }), 401, 'missing_api_key');
  });

  it.each([
    ['garbage', 'hello'],
    ['bad checksum', 'ck_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['well-formed but never issued', generateApiKey('live')],
  ])('%s → 401 invalid_api_key', async (_name, key) => {
    const t = setup();
    await expectError(await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }), 401, 'invalid_api_key');
  });

  it('refuses bad shapes and checksums before any store read', async () => {
    const t = setup();
    const spy = vi.spyOn(t.accounts, 'findKeyByHash');
    for (const key of ['nope', 'ck_test_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'ck_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      await expectError(await t.fetch('/api/v1/search', { headers: { 'x-api-key': key } }), 401, 'invalid_api_key');
    }
    expect(spy).not.toHaveBeenCalled();
    await t.fetch('/api/v1/search', { headers: { 'x-api-key': generateApiKey('test') } });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('refuses with 500 when the store answers a key lookup with another key’s row, never as that customer', async () => {
    const t = setup();
    const mine = await t.issueKey({ tier: 'self_serve_49' });
    const theirs = await t.issueKey({ tier: 'contract_2000' });
    const lookup = t.accounts.findKeyByHash.bind(t.accounts);
    // A store that hands the other key's row back, as a driver shifting results would.
    vi.spyOn(t.accounts, 'findKeyByHash').mockImplementation(async () => lookup(sha256Hex(theirs)));
    const response = await t.fetch('/api/v1/usage', { headers: { 'x-api-key': mine } });
    const body = await expectError(response, 500, 'internal');
    const [other] = [...t.accounts.customers.values()].filter((customer) => customer.tier === 'contract_2000');
    expect(JSON.stringify(body)).not.toContain(other?.id);
  });

  it('stores only the SHA-256 of a key and finds it by that hash', async () => {
    const t = setup();
    const key = await t.issueKey();
    const [stored] = [...t.accounts.keys.values()];
    expect(stored?.hash).toBe(sha256Hex(key));
    expect(JSON.stringify([...t.accounts.keys.values()])).not.toContain(key);
    expect(stored?.display_prefix).toBe(key.slice(0, 12));
  });

  it.each(['rotated', 'revoked'] as const)('%s key → 401 revoked_api_key, on the very next request', async (status) => {
    const t = setup();
    const key = await t.issueKey();
    expect((await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } })).status).toBe(200);
    for (const k of t.accounts.keys.values()) k.status = status;
    await expectError(await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }), 401, 'revoked_api_key');
  });

  it.each([
    [
      'suspended key',
      (t: ReturnType<typeof setup>) => {
        for (const k of t.accounts.keys.values()) k.status = 'suspended';
      },
    ],
    [
      'past_due customer',
      (t: ReturnType<typeof setup>) => {
        for (const c of t.accounts.customers.values()) c.status = 'past_due';
      },
    ],
    [
      'canceled customer',
      (t: ReturnType<typeof setup>) => {
        for (const c of t.accounts.customers.values()) c.status = 'canceled';
      },
    ],
  ])('%s → 402 payment_required', async (_name, mutate) => {
    const t = setup();
    const key = await t.issueKey();
    mutate(t);
    await expectError(await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }), 402, 'payment_required');
  });

  it('a key of the other environment with the same body is not valid', async () => {
    const t = setup();
    const key = await t.issueKey({ environment: 'live' });
    const forged = key.replace('ck_live_', 'ck_test_');
    await expectError(await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': forged } }), 401, 'invalid_api_key');
  });

  it('grace expiry is persisted by runJobs after 7 days', async () => {
    const t = setup();
    const key = await t.issueKey();
    const [customer] = [...t.accounts.customers.values()];
    customer!.status = 'past_due';
    customer!.past_due_since = new Date(t.clock.now());
    await t.service.runJobs(new Date(t.clock.now() + 6 * 86_400_000));
    expect([...t.accounts.keys.values()][0]?.status).toBe('active');
    await t.service.runJobs(new Date(t.clock.now() + 7 * 86_400_000));
    expect([...t.accounts.keys.values()][0]?.status).toBe('suspended');
    customer!.status = 'active';
    await expectError(await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }), 402, 'payment_required');
  });
});

describe('admin keys', () => {
  const admin = { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' };

  it('issues a contract key with overrides the gate then applies', async () => {
    const t = setup();
    const res = await t.fetch('/api/v1/admin/keys', {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ email: 'ops@label.example', limits: { burst_per_minute: 3, batch_max: 2 } }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, string>;
    expect(body).toMatchObject({ tier: 'contract_2000', environment: 'live', display_prefix: body.key?.slice(0, 12) });
    expect(body.key).toMatch(/^ck_live_[0-9A-Za-z]{32}$/);
    expect(body.id).toMatch(/^key_[0-9A-Z]{26}$/);
    expect(body.customer_id).toMatch(/^cust_[0-9A-Z]{26}$/);
    const ok = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': body.key as string } });
    expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
    const batch = await t.fetch('/api/v1/masters/batch', {
      method: 'POST',
      headers: { 'x-api-key': body.key as string, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [1, 2, 3] }),
    });
    await expectError(batch, 400, 'invalid_batch_size');
    expect(t.logs.some((l) => JSON.stringify(l).includes(body.key as string))).toBe(false);
  });

  it.each([
    ['no token', {}],
    ['wrong token', { authorization: 'Bearer nope' }],
    ['not bearer', { authorization: 'Basic dGVzdA==' }],
  ])('%s → 401 unauthorized', async (_n, headers) => {
    const t = setup();
    await expectError(await t.fetch('/api/v1/admin/keys', { method: 'POST', headers, body: '{"email":"a@b.co"}' }), 401, 'unauthorized');
  });

  it.each([
    ['malformed JSON', '{'],
    ['missing email', '{}'],
    ['bad email', '{"email":"nope"}'],
    ['unknown tier', '{"email":"a@b.co","tier":"gold"}'],
    ['unknown field', '{"email":"a@b.co","colour":"red"}'],
    ['overrides on self-serve', '{"email":"a@b.co","tier":"self_serve_49","limits":{"burst_per_minute":5}}'],
    ['negative override', '{"email":"a@b.co","limits":{"concurrency":-1}}'],
  ])('%s → 400 invalid_body and nothing created', async (_n, body) => {
    const t = setup();
    const res = await t.fetch('/api/v1/admin/keys', { method: 'POST', headers: admin, body });
    const json = await expectError(res, 400, 'invalid_body');
    expect(Array.isArray(json.details)).toBe(true);
    expect(t.accounts.customers.size).toBe(0);
  });

  it('is hidden (404) when no admin token is configured', async () => {
    const t = setup({ config: { adminToken: null } });
    await expectError(await t.fetch('/api/v1/admin/keys', { method: 'POST', headers: admin, body: '{}' }), 404, 'route_not_found');
  });
});
