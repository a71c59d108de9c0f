import { describe, expect, it } from 'vitest';
import { type ResolvedConfig, resolveConfig } from '../config.js';
import { emptyCatalogueData } from '../dataset.js';
import { noMetrics, pureHasher } from '../defaults.js';
import { ApiError } from '../errors/api-error.js';
import type { RequestLifetime } from '../http/deadline.js';
import { RequestEvent, type ServiceScope } from '../http/request-event.js';
import { createMemoryAccounts } from '../memory/accounts.js';
import { createMemoryCatalogue } from '../memory/catalogue.js';
import { createMemoryLimiter } from '../memory/limiter.js';
import type { Accounts, CallOptions, Limiter, LogRecord, Ports, TierId } from '../ports/index.js';
import { CONTRACT_REVIEW_CALLS, monthOf } from '../tiers.js';
import { admitKey, admitPublic, checkAdmin, type KeyGate, keyGate } from './admission.js';
import { issueCustomerKey } from './issue-key.js';
import { KeyCache } from './key-cache.js';

const NOW = Date.UTC(2026, 2, 10, 12);

function portsWith(limiter: Limiter = createMemoryLimiter()) {
  const logs: LogRecord[] = [];
  const alarms: string[] = [];
  const accounts = createMemoryAccounts();
  const ports: Ports<Accounts> = {
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

/** Admission reads the request, the time, the lifetime and the client's IP off the event; nothing of the service's scope. */
const SCOPE = { keep() {} } as unknown as ServiceScope;

/** The event of `request` as the service hands it to admission: no header written yet. */
function eventOf(request: Request, now: number, lifetime: CallOptions = {}, ip?: string): RequestEvent {
  const event = new RequestEvent(request, 'req_test', ip === undefined ? undefined : { clientIp: ip }, SCOPE, {});
  event.now = now;
  event.lifetime = lifetime as RequestLifetime;
  return event;
}

/** What admission left on the event: its principal, the headers every answer to it carries (null: none), its slot's release. */
function admissionOf(event: RequestEvent) {
  const headers = event.responseHeaders;
  return { principal: event.principal, headers: Object.keys(headers).length > 0 ? { ...headers } : null, release: event.release };
}

async function keyAdmission(request: Request, ports: Ports<Accounts>, now: number, counted: boolean, lifetime: CallOptions, gate?: KeyGate) {
  const event = eventOf(request, now, lifetime);
  await admitKey(event, ports, counted, gate);
  return admissionOf(event);
}

async function publicAdmission(ip: string, ports: Ports<Accounts>, config: ResolvedConfig, now: number) {
  const event = eventOf(new Request('http://x.test/api/v1'), now, {}, ip);
  await admitPublic(event, ports, config);
  return admissionOf(event);
}

/** checkAdmin of `request`; with a guard, as the service calls it (failures throttled per IP). */
async function adminAdmission(request: Request, config: ResolvedConfig, guard?: { ports: Ports<Accounts>; ip: string; now: number }) {
  const event = eventOf(request, guard?.now ?? NOW, {}, guard?.ip);
  await checkAdmin(event, config, guard?.ports ?? null);
  return admissionOf(event);
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
    const admission = await keyAdmission(withKey(plaintext), ports, NOW, true, {});
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
    const admission = await keyAdmission(withKey(plaintext), ports, NOW, false, {});
    expect(admission.headers?.['x-ratelimit-remaining']).toBe('60');
    expect(admission.release).toBeNull();
    expect(await ports.limiter.monthCount(customerId, 'test', monthOf(NOW))).toBe(0);
  });

  it('past the burst: 429 rate_limited with reason and Retry-After, and the refused call counts nowhere', async () => {
    const { ports, key } = portsWith();
    const { plaintext, customerId } = await key();
    // Each call frees its concurrency slot, so only the burst can refuse.
    for (let i = 0; i < 60; i++) await (await keyAdmission(withKey(plaintext), ports, NOW, true, {})).release?.();
    await expect(keyAdmission(withKey(plaintext), ports, NOW, true, {})).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      body: { reason: 'burst', retry_after_seconds: expect.any(Number) },
      headers: { 'retry-after': expect.any(String), 'x-ratelimit-remaining': '0' },
    });
    expect(await ports.limiter.monthCount(customerId, 'test', monthOf(NOW))).toBe(60);
  });

  it('the gate refuses before the limiter: missing or unknown keys', async () => {
    const { ports } = portsWith();
    await expect(keyAdmission(new Request('http://x.test/'), ports, NOW, true, {})).rejects.toMatchObject({ status: 401, code: 'missing_api_key' });
    await expect(keyAdmission(withKey('ck_test_nope'), ports, NOW, true, {})).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('a limiter that fails lets the call through without limit headers, logs ratelimit.fail_open and raises the alarm', async () => {
    const { ports, logs, alarms, key } = portsWith(failing);
    const { plaintext } = await key();
    const admission = await keyAdmission(withKey(plaintext), ports, NOW, true, {});
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
    for (let i = 0; i < 2; i++) await (await keyAdmission(withKey(plaintext), ports, NOW, true, {})).release?.();
    expect(logs.filter((r) => r.kind === 'quota.contract_review')).toHaveLength(1);
    expect(alarms).toEqual(['quota.contract_review']);
  });
});

describe('admitPublic: the per-IP window of the public routes', () => {
  const config: ResolvedConfig = resolveConfig({ baseUrl: 'http://x.test', publicRateLimitPerMinute: 2 });

  it('admits up to the limit per IP, then 429; another IP has its own window', async () => {
    const { ports } = portsWith();
    expect((await publicAdmission('203.0.113.1', ports, config, NOW)).headers).toMatchObject({ 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': '1' });
    await publicAdmission('203.0.113.1', ports, config, NOW);
    await expect(publicAdmission('203.0.113.1', ports, config, NOW)).rejects.toMatchObject({ status: 429, body: { reason: 'burst' } });
    await expect(publicAdmission('203.0.113.2', ports, config, NOW)).resolves.toMatchObject({ principal: null });
  });

  it('fails open like the key gate', async () => {
    const { ports, logs, alarms } = portsWith(failing);
    await expect(publicAdmission('203.0.113.1', ports, config, NOW)).resolves.toEqual({ principal: null, headers: null, release: null });
    expect(logs).toEqual([expect.objectContaining({ kind: 'ratelimit.fail_open', scope: 'public' })]);
    expect(alarms).toEqual(['ratelimit.fail_open']);
  });
});

describe('checkAdmin: the ADMIN_TOKEN bearer', () => {
  const bearer = (token: string) => new Request('http://x.test/api/v1/admin/keys', { headers: { authorization: `Bearer ${token}` } });

  it('admits the configured token only', async () => {
    const config = resolveConfig({ baseUrl: 'http://x.test', adminToken: 'secret-token' });
    await expect(adminAdmission(bearer('secret-token'), config)).resolves.toEqual({ principal: null, headers: null, release: null });
    for (const request of [bearer('secret-tokem'), bearer(''), new Request('http://x.test/')]) {
      await expect(adminAdmission(request, config)).rejects.toMatchObject({ status: 401, code: 'unauthorized', headers: { 'www-authenticate': 'Bearer' } });
    }
  });

  it('admits nobody without a configured token', async () => {
    await expect(adminAdmission(bearer(''), resolveConfig({ baseUrl: 'http://x.test' }))).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('with a guard: logs each failure without the token, and past 10 a minute refuses the IP with 429, the right token too', async () => {
    const { ports, logs, alarms } = portsWith();
    const config = resolveConfig({ baseUrl: 'http://x.test', adminToken: 'secret-token' });
    const guard = (ip: string, now = NOW) => ({ ports, ip, now });
    for (let i = 0; i < 10; i++) await expect(adminAdmission(bearer(`guess-${i}`), config, guard('203.0.113.1'))).rejects.toMatchObject({ status: 401 });
    await expect(adminAdmission(bearer('guess-10'), config, guard('203.0.113.1'))).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    await expect(adminAdmission(bearer('secret-token'), config, guard('203.0.113.1'))).rejects.toMatchObject({
      status: 429,
      headers: { 'retry-after': expect.any(String) },
    });
    // Successes count nothing: another IP is served as often as it asks.
    for (let i = 0; i < 20; i++) await expect(adminAdmission(bearer('secret-token'), config, guard('203.0.113.2'))).resolves.toMatchObject({ principal: null });
    // The next minute but one, the IP is served again.
    await expect(adminAdmission(bearer('secret-token'), config, guard('203.0.113.1', NOW + 120_000))).resolves.toMatchObject({ principal: null });
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
    for (let i = 0; i < 5; i++) await (await keyAdmission(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    // The first read learns the epoch, the second is cached under it, the rest need no read.
    expect(reads).toBe(2);
    await limiter.bumpAuthEpoch?.();
    for (let i = 0; i < 5; i++) await (await keyAdmission(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    expect(reads).toBe(3);
  });

  it('does not cache a read that a change raced (the epoch moved between the read and the admit)', async () => {
    const limiter = createMemoryLimiter({ authEpochs: true });
    const { ports, accounts, key } = portsWith(limiter);
    const { plaintext } = await key();
    const cache = new KeyCache();
    await (await keyAdmission(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
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
    for (let i = 0; i < 4; i++) await (await keyAdmission(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
    expect(reads).toBe(4);
    expect(cache.size).toBe(0);
  });

  it('never answers from the cache while the limiter fails: the store is read, and the call fails open once', async () => {
    const limiter = createMemoryLimiter({ authEpochs: true });
    const { ports, accounts, key, logs } = portsWith(limiter);
    const { plaintext } = await key();
    const cache = new KeyCache();
    for (let i = 0; i < 3; i++) await (await keyAdmission(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }))).release?.();
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
    const admission = await keyAdmission(request(plaintext), ports, NOW, true, lifetime, keyGate({ cache }));
    expect(admission.headers).toBeNull();
    expect({ admits, reads }).toEqual({ admits: 1, reads: 1 });
    expect(logs.filter((record) => record.kind === 'ratelimit.fail_open')).toHaveLength(1);
  });
});

describe('admission: what is logged, alarmed and refused at the edges', () => {
  it('an uncounted call fails open too when the limiter cannot peek', async () => {
    const { ports, logs, alarms, key } = portsWith(failing);
    const { plaintext, customerId } = await key();
    const admission = await keyAdmission(withKey(plaintext), ports, NOW, false, {});
    expect(admission).toMatchObject({ headers: null, release: null, principal: { customer: { id: customerId } } });
    expect(logs).toEqual([{ level: 'warn', kind: 'ratelimit.fail_open', customer_id: customerId, key_prefix: plaintext.slice(0, 12), error: 'redis down' }]);
    expect(alarms).toEqual(['ratelimit.fail_open']);
  });

  it('fail-open: counted per scope in the metrics, the alarm names the customer; a non-Error is logged as text', async () => {
    const scopes: string[] = [];
    const details: unknown[] = [];
    const plain: Limiter = { ...failing, admit: () => Promise.reject('socket closed') };
    const { ports, logs, key } = portsWith(plain);
    ports.metrics = { ...ports.metrics, limiterFailOpen: (scope: string) => scopes.push(scope) };
    ports.alarm = { raise: (_kind, detail) => details.push(detail) };
    const { plaintext, customerId } = await key();
    await keyAdmission(withKey(plaintext), ports, NOW, true, {});
    expect(logs[0]).toMatchObject({ error: 'socket closed' });
    expect(details).toEqual([{ customer_id: customerId, key_prefix: plaintext.slice(0, 12), error: 'socket closed' }]);
    expect(scopes).toEqual(['key']);
    await publicAdmission('203.0.113.9', ports, resolveConfig({ baseUrl: 'http://x.test' }), NOW);
    expect(scopes).toEqual(['key', 'public']);
  });

  it('a refusal the limiter throws as an ApiError is the answer, not a fail-open', async () => {
    const refusing: Limiter = {
      ...failing,
      admit: () => Promise.reject(new ApiError('pool_exhausted')),
      admitPublic: () => Promise.reject(new ApiError('pool_exhausted')),
    };
    const { ports, logs, key } = portsWith(refusing);
    const { plaintext } = await key();
    await expect(keyAdmission(withKey(plaintext), ports, NOW, true, {})).rejects.toMatchObject({ status: 503, code: 'pool_exhausted' });
    await expect(publicAdmission('203.0.113.1', ports, resolveConfig({ baseUrl: 'http://x.test' }), NOW)).rejects.toMatchObject({ status: 503 });
    expect(logs).toEqual([]);
  });

  it('the public fail-open line names its scope and the error', async () => {
    const { ports, logs } = portsWith({ ...failing, admitPublic: () => Promise.reject('down') });
    await publicAdmission('203.0.113.1', ports, resolveConfig({ baseUrl: 'http://x.test' }), NOW);
    expect(logs).toEqual([{ level: 'warn', kind: 'ratelimit.fail_open', scope: 'public', error: 'down' }]);
  });

  it('a refusal without a reason is a burst refusal', async () => {
    const memory = createMemoryLimiter();
    const refusing: Limiter = {
      ...memory,
      admit: async (request) => ({ ...(await memory.admit(request)), allowed: false, reason: null, retryAfterSeconds: 5 }),
    };
    const { ports, key } = portsWith(refusing);
    const { plaintext } = await key();
    await expect(keyAdmission(withKey(plaintext), ports, NOW, true, {})).rejects.toMatchObject({
      status: 429,
      body: { reason: 'burst', retry_after_seconds: 5 },
    });
  });

  const crossingAt = (count: number): Limiter => {
    const memory = createMemoryLimiter();
    return { ...memory, admit: async (request) => ({ ...(await memory.admit(request)), monthCount: count }) };
  };

  it('contract review: exactly at the crossing call of a contract customer, logged with its detail', async () => {
    const { ports, logs, key } = portsWith(crossingAt(CONTRACT_REVIEW_CALLS + 1));
    const details: unknown[] = [];
    ports.alarm = { raise: (_kind, detail) => details.push(detail) };
    const { plaintext, customerId } = await key('contract_2000');
    await keyAdmission(withKey(plaintext), ports, NOW, true, {});
    const detail = { customer_id: customerId, environment: 'test', month: monthOf(NOW), calls: CONTRACT_REVIEW_CALLS + 1 };
    expect(logs).toEqual([{ level: 'warn', kind: 'quota.contract_review', ...detail }]);
    expect(details).toEqual([detail]);
  });

  it('contract review: never for a self-serve customer, nor past the crossing call', async () => {
    const selfServe = portsWith(crossingAt(CONTRACT_REVIEW_CALLS + 1));
    const s = await selfServe.key('self_serve_299');
    await keyAdmission(withKey(s.plaintext), selfServe.ports, NOW, true, {});
    const later = portsWith(crossingAt(CONTRACT_REVIEW_CALLS + 2));
    const c = await later.key('contract_2000');
    await keyAdmission(withKey(c.plaintext), later.ports, NOW, true, {});
    expect([...selfServe.logs, ...later.logs, ...selfServe.alarms, ...later.alarms]).toEqual([]);
  });

  it('contract review: raised when the claim cannot be made (store away), not when another instance claimed it', async () => {
    const away = portsWith(crossingAt(CONTRACT_REVIEW_CALLS + 1));
    const a = await away.key('contract_2000');
    away.ports.accounts = { ...away.accounts, claimContractReview: () => Promise.reject(new Error('db down')) };
    await keyAdmission(withKey(a.plaintext), away.ports, NOW, true, {});
    expect(away.alarms).toEqual(['quota.contract_review']);
    const claimed = portsWith(crossingAt(CONTRACT_REVIEW_CALLS + 1));
    const c = await claimed.key('contract_2000');
    claimed.ports.accounts = { ...claimed.accounts, claimContractReview: async () => false };
    await keyAdmission(withKey(c.plaintext), claimed.ports, NOW, true, {});
    expect(claimed.alarms).toEqual([]);
  });

  it('checkAdmin: a missing bearer is logged as such, and the throttle alarm says from where', async () => {
    const { ports, logs } = portsWith();
    const details: Array<[string, unknown]> = [];
    ports.alarm = { raise: (kind, detail) => details.push([kind, detail]) };
    const config = resolveConfig({ baseUrl: 'http://x.test', adminToken: 'secret-token' });
    const guard = { ports, ip: '203.0.113.5', now: NOW };
    await expect(adminAdmission(new Request('http://x.test/'), config, guard)).rejects.toMatchObject({
      status: 401,
      body: { message: 'admin routes need Authorization: Bearer <ADMIN_TOKEN>' },
    });
    await expect(adminAdmission(new Request('http://x.test/', { headers: { authorization: 'Basic secret-token' } }), config, guard)).rejects.toMatchObject({
      status: 401,
    });
    expect(logs).toEqual([
      { level: 'warn', kind: 'admin.auth_failed', ip: '203.0.113.5', reason: 'no bearer token' },
      { level: 'warn', kind: 'admin.auth_failed', ip: '203.0.113.5', reason: 'no bearer token' },
    ]);
    for (let i = 0; i < 8; i++) await expect(adminAdmission(new Request('http://x.test/'), config, guard)).rejects.toMatchObject({ status: 401 });
    await expect(adminAdmission(new Request('http://x.test/'), config, guard)).rejects.toMatchObject({ status: 429 });
    expect(details).toEqual([['admin.auth_throttled', { ip: '203.0.113.5', failures_per_minute: 10 }]]);
  });

  it('checkAdmin: a failing limiter lets the check go on, logged under its own scope', async () => {
    const { ports, logs } = portsWith({ ...failing, admitPublic: () => Promise.reject('down') });
    const scopes: string[] = [];
    ports.metrics = { ...ports.metrics, limiterFailOpen: (scope: string) => scopes.push(scope) };
    const config = resolveConfig({ baseUrl: 'http://x.test', adminToken: 'secret-token' });
    const request = new Request('http://x.test/', { headers: { authorization: 'Bearer secret-token' } });
    await expect(adminAdmission(request, config, { ports, ip: '203.0.113.5', now: NOW })).resolves.toMatchObject({ principal: null });
    expect(logs).toEqual([{ level: 'warn', kind: 'ratelimit.fail_open', scope: 'admin-auth', error: 'down' }]);
    expect(scopes).toEqual(['public']);
  });
});
