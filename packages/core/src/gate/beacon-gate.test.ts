/**
 * What a beacon passes before it is stored (beacon-gate.ts): a genuine token as a Bearer, the
 * IP's and the token's per-minute budgets (failing open like the key gate), an active key.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { emptyCatalogueData } from '../dataset.js';
import { noMetrics, pureHasher } from '../defaults.js';
import { ApiError } from '../errors/api-error.js';
import type { WithAccounts } from '../http/route.js';
import { createMemoryAccounts } from '../memory/accounts.js';
import { createMemoryCatalogue } from '../memory/catalogue.js';
import { createMemoryLimiter } from '../memory/limiter.js';
import type { Accounts, CustomersAndKeys, Limiter, LogRecord, Ports } from '../ports/index.js';
import { admitBeacon, BEACON_EVENTS_PER_TOKEN_PER_MINUTE, invalidBeaconToken } from './beacon-gate.js';
import { createBeaconSigner } from './beacon-token.js';
import { issueCustomerKey } from './issue-key.js';

const NOW = Date.UTC(2026, 2, 10, 12);
const SECRET = 'c'.repeat(64);
const SEARCH = 'srch_01HZY8T4Q9X6W5V3R2P1N0M7KJ';

async function setup(options: { limiter?: Limiter; ipPerMinute?: number } = {}) {
  const logs: LogRecord[] = [];
  const alarms: string[] = [];
  const failOpens: string[] = [];
  const accounts = createMemoryAccounts();
  const ports: Ports<Accounts> = {
    catalogue: createMemoryCatalogue(emptyCatalogueData()),
    accounts,
    limiter: options.limiter ?? createMemoryLimiter(),
    clock: { now: () => NOW },
    logger: { log: (record) => logs.push(record) },
    alarm: { raise: (kind) => alarms.push(kind) },
    hasher: pureHasher,
    metrics: { ...noMetrics, limiterFailOpen: (scope: string) => failOpens.push(scope) },
  };
  const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date(NOW));
  const token = createBeaconSigner(SECRET).issue(SEARCH, issued.key.id, NOW);
  const config = resolveConfig({ baseUrl: 'http://x.test', secretKey: SECRET, beaconRateLimitPerMinute: options.ipPerMinute ?? 600 });
  const ctx = (authorization: string | null, ip = '192.0.2.1', secret: string | null = SECRET) =>
    ({
      request: new Request('http://x.test/api/v1/search-events/observed', { method: 'POST', headers: authorization === null ? {} : { authorization } }),
      ports,
      config: { ...config, secretKey: secret },
      now: NOW,
      clientIp: ip,
      lifetime: {},
    }) as unknown as WithAccounts<CustomersAndKeys>;
  return { ports, accounts, issued, token, ctx, logs, alarms, failOpens };
}

async function refusal(promise: Promise<unknown>): Promise<[number, string, unknown]> {
  const error = await promise.then(
    () => new Error('admitted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  const e = error as ApiError;
  return [e.status, e.code, e.code === 'rate_limited' ? e.body.reason : e.publicMessage];
}

describe('admitBeacon', () => {
  it('a genuine token of an active key: its claims', async () => {
    const { ctx, token, issued } = await setup();
    expect(await admitBeacon(ctx(`Bearer ${token}`))).toEqual({ searchId: SEARCH, keyId: issued.key.id, expiresAt: expect.any(Number) });
    // Whitespace around the token is forgiven.
    expect((await admitBeacon(ctx(`Bearer  ${token} `))).searchId).toBe(SEARCH);
  });

  it('401 invalid_beacon_token with a WWW-Authenticate challenge without a Bearer token', async () => {
    const { ctx, token } = await setup();
    const message = 'send the search answer’s beacon_token as Authorization: Bearer <beacon_token>';
    for (const header of [null, '', token, `bearer ${token}`, `Basic ${token}`])
      expect(await refusal(admitBeacon(ctx(header))), String(header)).toEqual([401, 'invalid_beacon_token', message]);
    expect(invalidBeaconToken('x').headers).toEqual({ 'www-authenticate': 'Bearer realm="search-events"' });
  });

  it('401 for a forged or foreign token, or when no SECRET_KEY can verify one', async () => {
    const { ctx, token } = await setup();
    const message = 'the beacon token is not valid or has expired';
    expect(await refusal(admitBeacon(ctx(`Bearer ${token.slice(0, -2)}AA`)))).toEqual([401, 'invalid_beacon_token', message]);
    expect(await refusal(admitBeacon(ctx(`Bearer ${token}`, '192.0.2.1', 'd'.repeat(64))))).toEqual([401, 'invalid_beacon_token', message]);
    expect(await refusal(admitBeacon(ctx(`Bearer ${token}`, '192.0.2.1', null)))).toEqual([401, 'invalid_beacon_token', message]);
  });

  it('401 once the key is revoked, or its customer is not in good standing', async () => {
    const { ctx, token, accounts, issued } = await setup();
    const message = 'the key this search was made with is no longer active';
    const customer = accounts.customers.get(issued.customer.id);
    if (customer) Object.assign(customer, { status: 'past_due' });
    expect(await refusal(admitBeacon(ctx(`Bearer ${token}`)))).toEqual([401, 'invalid_beacon_token', message]);
    if (customer) Object.assign(customer, { status: 'active' });
    expect((await admitBeacon(ctx(`Bearer ${token}`))).searchId).toBe(SEARCH);
    await accounts.revokeKey(issued.customer.id, issued.key.id);
    expect(await refusal(admitBeacon(ctx(`Bearer ${token}`)))).toEqual([401, 'invalid_beacon_token', message]);
  });

  it('401 for a token of a key that does not exist', async () => {
    const { ctx } = await setup();
    const stranger = createBeaconSigner(SECRET).issue(SEARCH, 'key_unknown', NOW);
    expect((await refusal(admitBeacon(ctx(`Bearer ${stranger}`))))[1]).toBe('invalid_beacon_token');
  });

  it('429 past 20 events a minute on one token, whatever the IP', async () => {
    expect(BEACON_EVENTS_PER_TOKEN_PER_MINUTE).toBe(20);
    const { ctx, token } = await setup();
    for (let i = 0; i < 20; i++) await admitBeacon(ctx(`Bearer ${token}`, `192.0.2.${i}`));
    expect(await refusal(admitBeacon(ctx(`Bearer ${token}`, '198.51.100.1')))).toEqual([429, 'rate_limited', 'burst']);
  });

  it('429 past the configured events a minute from one IP, across tokens; the IP is counted first', async () => {
    const { ctx, token, issued } = await setup({ ipPerMinute: 3 });
    const other = createBeaconSigner(SECRET).issue('srch_01HZY8T4Q9X6W5V3R2P1N0M7KK', issued.key.id, NOW);
    for (let i = 0; i < 3; i++) await admitBeacon(ctx(`Bearer ${i % 2 ? token : other}`));
    expect(await refusal(admitBeacon(ctx(`Bearer ${other}`)))).toEqual([429, 'rate_limited', 'burst']);
    // Another IP still has its budget.
    expect((await admitBeacon(ctx(`Bearer ${token}`, '198.51.100.7'))).searchId).toBe(SEARCH);
  });

  it('fails open when the limiter fails: logged, counted and alarmed, the beacon admitted', async () => {
    const failing = createMemoryLimiter();
    failing.admitPublic = () => Promise.reject(new Error('redis down'));
    const { ctx, token, logs, alarms, failOpens } = await setup({ limiter: failing });
    expect((await admitBeacon(ctx(`Bearer ${token}`))).searchId).toBe(SEARCH);
    expect(logs).toContainEqual({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'beacon', error: 'redis down' });
    expect(alarms).toEqual(['ratelimit.fail_open', 'ratelimit.fail_open']);
    expect(failOpens).toEqual(['beacon', 'beacon']);
    failing.admitPublic = () => Promise.reject('plain');
    await admitBeacon(ctx(`Bearer ${token}`));
    expect(logs.at(-1)).toEqual({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'beacon', error: 'plain' });
  });
});
