import { describe, expect, it } from 'vitest';
import { type ResolvedConfig, resolveConfig } from '../config.js';
import { emptyCatalogueData } from '../dataset.js';
import { noMetrics, pureHasher } from '../defaults.js';
import { createMemoryAccounts } from '../memory/accounts.js';
import { createMemoryCatalogue } from '../memory/catalogue.js';
import { createMemoryLimiter } from '../memory/limiter.js';
import type { Limiter, LogRecord, Ports, TierId } from '../ports/index.js';
import { CONTRACT_REVIEW_CALLS, monthOf } from '../tiers.js';
import { admitKey, admitPublic, checkAdmin, keyGate } from './admission.js';
import { issueCustomerKey } from './issue-key.js';
import { KeyCache } from './key-cache.js';

const NOW = Date.UTC(2026, 2, 10, 12);

function portsWith(limiter: Limiter = createMemoryLimiter()) {
  const logs: LogRecord[] = [];
  const alarms: string[] = [];
  const accounts = createMemoryAccounts();
  const ports: Ports = {
    catalogue: createMemoryCatalogue(emptyCatalogueData()),
    accounts,
    limiter,
    clock: { now: () => NOW },
    logger: { log: (record) => logs.push(record) },
    alarm: { raise: (kind) => alarms.push(kind) },
    hasher: pureHasher,
    metrics: noMetrics,
  };
  const key = async (tier: TierId = 'self_serve_49') => {
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier, environment: 'test' }, new Date(NOW));
    return { plaintext: issued.plaintext, customerId: issued.customer.id };
  };
  return { ports, logs, alarms, key, accounts };
}

const withKey = (key: string) => new Request('http://x.test/api/v1/search', { headers: { 'x-api-key': key } });
const failing: Limiter = {
  admit: () => Promise.reject(new Error('redis down')),
  peek: () => Promise.reject(new Error('redis down')),
  monthCount: () => Promise.reject(new Error('redis down')),
  admitPublic: () => Promise.reject(new Error('redis down')),
};

describe('admitKey: the key gate, then one limiter decision', () => {
  it('a counted call: the principal, the rate-limit headers and a release of its slot', async () => {
    const { ports, key } = portsWith();
    const { plaintext, customerId } = await key();
    const admission = await admitKey(withKey(plaintext), ports, NOW, true, {});
    expect(admission.principal?.customer.id).toBe(customerId);
    expect(admission.headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': expect.any(String),
      'ratelimit-policy': expect.stringMatching(/^"burst";q=60;w=60, "quota";q=10000;w=\d+$/),
      ratelimit: expect.stringMatching(/^"burst";r=59;t=60, "quota";r=9999;t=\d+$/),
    });
    expect(admission.release).toBeTypeOf('function');
    expect(await ports.limiter.monthCount(customerId, 'test', monthOf(NOW))).toBe(1);
  });

  it('an uncounted call (usage) peeks: headers, no slot, nothing counted', async () => {
    const { ports, key } = portsWith();
    const { plaintext, customerId } = await key();
    const admission = await admitKey(withKey(plaintext), ports, NOW, false, {});
    expect(admission.headers?.['x-ratelimit-remaining']).toBe('60');
    expect(admission.release).toBeNull();
    expect(await ports.limiter.monthCount(customerId, 'test', monthOf(NOW))).toBe(0);
  });

  it('past the burst: 429 rate_limited with reason and Retry-After, and the refused call counts nowhere', async () => {
    const { ports, key } = portsWith();
    const { plaintext, customerId } = await key();
    // Each call frees its concurrency slot, so only the burst can refuse.
    for (let i = 0; i < 60; i++) await (await admitKey(withKey(plaintext), ports, NOW, true, {})).release?.();
    await expect(admitKey(withKey(plaintext), ports, NOW, true, {})).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      body: { reason: 'burst', retry_after_seconds: expect.any(Number) },
      headers: { 'retry-after': expect.any(String), 'x-ratelimit-remaining': '0' },
    });
    expect(await ports.limiter.monthCount(customerId, 'test', monthOf(NOW))).toBe(60);
  });

  it('the gate refuses before the limiter: missing or unknown keys', async () => {
    const { ports } = portsWith();
    await expect(admitKey(new Request('http://x.test/'), ports, NOW, true, {})).rejects.toMatchObject({ status: 401, code: 'missing_api_key' });
    await expect(admitKey(withKey('ck_test_nope'), ports, NOW, true, {})).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('a limiter that fails lets the call through without limit headers, logs ratelimit.fail_open and raises the alarm', async () => {
    const { ports, logs, alarms, key } = portsWith(failing);
    const { plaintext } = await key();
    const admission = await admitKey(withKey(plaintext), ports, NOW, true, {});
    expect(admission).toMatchObject({ headers: null, release: null });
    expect(admission.principal).not.toBeNull();
    expect(logs).toEqual([expect.objectContaining({ level: 'warn', kind: 'ratelimit.fail_open', error: 'redis down' })]);
    expect(alarms).toEqual(['ratelimit.fail_open']);
    expect(JSON.stringify(logs)).not.toContain(plaintext);
  });

  it('a contract customer crossing the review threshold is logged and alarmed once per month', async () => {
    const memory = createMemoryLimiter();
    const crossing: Limiter = { ...memory, admit: async (request) => ({ ...(await memory.admit(request)), monthCount: CONTRACT_REVIEW_CALLS + 1 }) };
    const { ports, logs, alarms, key } = portsWith(crossing);
    const { plaintext } = await key('contract_2000');
    for (let i = 0; i < 2; i++) await (await admitKey(withKey(plaintext), ports, NOW, true, {})).release?.();
    expect(logs.filter((r) => r.kind === 'quota.contract_review')).toHaveLength(1);
    expect(alarms).toEqual(['quota.contract_review']);
  });
});

describe('admitPublic: the per-IP window of the public routes', () => {
  const config: ResolvedConfig = resolveConfig({ baseUrl: 'http://x.test', publicRateLimitPerMinute: 2 });

  it('admits up to the limit per IP, then 429; another IP has its own window', async () => {
    const { ports } = portsWith();
    expect((await admitPublic('203.0.113.1', ports, config, NOW)).headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    await admitPublic('203.0.113.1', ports, config, NOW);
    await expect(admitPublic('203.0.113.1', ports, config, NOW)).rejects.toMatchObject({ status: 429, body: { reason: 'burst' } });
    await expect(admitPublic('203.0.113.2', ports, config, NOW)).resolves.toMatchObject({ principal: null });
  });

  it('fails open like the key gate', async () => {
    const { ports, logs, alarms } = portsWith(failing);
    await expect(admitPublic('203.0.113.1', ports, config, NOW)).resolves.toEqual({ principal: null, headers: null, release: null });
    expect(logs).toEqual([expect.objectContaining({ kind: 'ratelimit.fail_open', scope: 'public' })]);
    expect(alarms).toEqual(['ratelimit.fail_open']);
  });
});

describe('checkAdmin: the ADMIN_TOKEN bearer', () => {
  const bearer = (token: string) => new Request('http://x.test/api/v1/admin/keys', { headers: { authorization: `Bearer ${token}` } });

  it('admits the configured token only', async () => {
    const config = resolveConfig({ baseUrl: 'http://x.test', adminToken: 'secret-token' });
    await expect(checkAdmin(bearer('secret-token'), config)).resolves.toEqual({ principal: null, headers: null, release: null });
    for (const request of [bearer('secret-tokem'), bearer(''), new Request('http://x.test/')]) {
      await expect(checkAdmin(request, config)).rejects.toMatchObject({ status: 401, code: 'unauthorized', headers: { 'www-authenticate': 'Bearer' } });
    }
  });

  it('admits nobody without a configured token', async () => {
    await expect(checkAdmin(bearer(''), resolveConfig({ baseUrl: 'http://x.test' }))).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('with a guard: logs each failure without the token, and past 10 a minute refuses the IP with 429, the right token too', async () => {
    const { ports, logs, alarms } = portsWith();
    const config = resolveConfig({ baseUrl: 'http://x.test', adminToken: 'secret-token' });
    const guard = (ip: string, now = NOW) => ({ ports, ip, now });
    for (let i = 0; i < 10; i++) await expect(checkAdmin(bearer(`guess-${i}`), config, guard('203.0.113.1'))).rejects.toMatchObject({ status: 401 });
    await expect(checkAdmin(bearer('guess-10'), config, guard('203.0.113.1'))).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    await expect(checkAdmin(bearer('secret-token'), config, guard('203.0.113.1'))).rejects.toMatchObject({
      status: 429,
      headers: { 'retry-after': expect.any(String) },
    });
    // Successes count nothing: another IP is served as often as it asks.
    for (let i = 0; i < 20; i++) await expect(checkAdmin(bearer('secret-token'), config, guard('203.0.113.2'))).resolves.toMatchObject({ principal: null });
    // The next minute but one, the IP is served again.
    await expect(checkAdmin(bearer('secret-token'), config, guard('203.0.113.1', NOW + 120_000))).resolves.toMatchObject({ principal: null });
    const failed = logs.filter((r) => r.kind === 'admin.auth_failed');
    expect(failed).toHaveLength(10);
    expect(failed[0]).toMatchObject({ level: 'warn', ip: '203.0.113.1', reason: 'wrong token' });
    expect(JSON.stringify(logs)).not.toMatch(/guess-|secret-token/);
    expect(alarms).toContain('admin.auth_throttled');
  });
});

describe('admitKey with the key cache', () => {
  const request = (key: string) => new Request('http://t/api/v1/masters/1', { headers: { 'x-api-key': key } });
  const lifetime = {};

  it('reads the store until an epoch is known, then caches, and reads again once the epoch moves on', async () => {
    const limiter = createMemoryLimiter({ authEpochs: true });
    const { ports, accounts, key } = portsWith(limiter);
    const { plaintext } = await key();
    let reads = 0;
    const find = accounts.findKeyByHash.bind(accounts);
    ports.accounts = {
      ...accounts,
      findKeyByHash: (hash, options) => {
        reads++;
        return find(hash, options);
      },
    };
    const cache = new KeyCache();
    for (let i = 0; i < 5; i++) await (await admitKey(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    // The first read learns the epoch, the second is cached under it, the rest need no read.
    expect(reads).toBe(2);
    await limiter.bumpAuthEpoch?.();
    for (let i = 0; i < 5; i++) await (await admitKey(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    expect(reads).toBe(3);
  });

  it('does not cache a read that a change raced (the epoch moved between the read and the admit)', async () => {
    const limiter = createMemoryLimiter({ authEpochs: true });
    const { ports, accounts, key } = portsWith(limiter);
    const { plaintext } = await key();
    const cache = new KeyCache();
    await (await admitKey(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    let reads = 0;
    const find = accounts.findKeyByHash.bind(accounts);
    // Every read is raced by a change that lands before the admit.
    ports.accounts = {
      ...accounts,
      findKeyByHash: async (hash, options) => {
        reads++;
        const found = await find(hash, options);
        await limiter.bumpAuthEpoch?.();
        return found;
      },
    };
    for (let i = 0; i < 4; i++) await (await admitKey(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    expect(reads).toBe(4);
    expect(cache.size).toBe(0);
  });

  it('never answers from the cache while the limiter fails: the store is read, and the call fails open once', async () => {
    const limiter = createMemoryLimiter({ authEpochs: true });
    const { ports, accounts, key, logs } = portsWith(limiter);
    const { plaintext } = await key();
    const cache = new KeyCache();
    for (let i = 0; i < 3; i++) await (await admitKey(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    let admits = 0;
    let reads = 0;
    const find = accounts.findKeyByHash.bind(accounts);
    ports.accounts = {
      ...accounts,
      findKeyByHash: (hash, options) => {
        reads++;
        return find(hash, options);
      },
    };
    ports.limiter = {
      ...limiter,
      admit: async () => {
        admits++;
        throw new Error('store away');
      },
    };
    const admission = await admitKey(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }));
    expect(admission.headers).toBeNull();
    expect({ admits, reads }).toEqual({ admits: 1, reads: 1 });
    expect(logs.filter((record) => record.kind === 'ratelimit.fail_open')).toHaveLength(1);
  });
});
