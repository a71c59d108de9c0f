/**
 * The gate's key cache (issue 14, docs/decisions.md §3) as operators run it: two instances of
 * the service on one PostgreSQL Accounts and one Redis (the limiter's epoch proves each cached
 * lookup current), Stripe events signed with the `stripe` package against the local stand-in.
 * A key check costs no database round trip once cached, and every change the gate reads —
 * revoke, rotate, suspension, restoration, tier flip — applies on the very next request on the
 * other instance. A Redis that restarts empty invalidates every cache.
 */
import type { Accounts } from '@catalogue/core';
import { createMemoryMailer } from '@catalogue/core/memory';
import { createPostgresAccounts, migrate } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../packages/core/src/billing/tokens.js';
import { createRedisLimiter } from '../../packages/upstash/src/index.js';
import { checkoutCompletedEvent, createBillingHarnessOn, invoiceEvent, PRICES } from '../billing/support/billing-harness.js';
import { type StripeApiStandIn, startStripeApi } from '../billing/support/stripe-api-server.js';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { createRedisProcess, type RedisProcess } from './redis-process.js';
import { openTransport, type Transport } from './transports.js';

let stripeApi: StripeApiStandIn;
let db: TestDatabase;
let redis: RedisProcess;
let transports: Transport[] = [];
let lookups = 0;
let a: ReturnType<typeof createBillingHarnessOn<Accounts>>;
let b: ReturnType<typeof createBillingHarnessOn<Accounts>>;
const mailer = createMemoryMailer();
const keyIn = (text: string) => text.match(/ck_(?:live|test)_[0-9A-Za-z]{32}/)?.[0] ?? null;

beforeAll(async () => {
  stripeApi = await startStripeApi();
  db = await createPostgresDatabase({ max: 6 });
  await migrate(db.sql);
  const accounts = createPostgresAccounts(db.sql);
  // Counts the gate's key lookups on the store, whichever instance makes them.
  const counted = new Proxy(accounts, {
    get(target, name, receiver) {
      if (name === 'findKeyByHash')
        return (...args: Parameters<Accounts['findKeyByHash']>) => {
          lookups++;
          return target.findKeyByHash(...args);
        };
      return Reflect.get(target, name, receiver);
    },
  });
  redis = await createRedisProcess();
  await redis.start();
  transports = [await openTransport('tcp', redis.url), await openTransport('tcp', redis.url)];
  const [one, two] = transports.map((t) => createRedisLimiter({ redis: t.commands, accounts, prefix: 'keycache', timeoutMs: 1_000 }));
  a = createBillingHarnessOn({ stripeApi, mailer, limiter: one }, counted);
  b = createBillingHarnessOn({ stripeApi, mailer, limiter: two }, counted);
}, 60_000);

afterAll(async () => {
  for (const t of transports) await t.close();
  await redis?.kill();
  await stripeApi?.close();
  await db?.drop();
});

async function subscribe(email: string, customer: string) {
  const signup = await a.fetch('/api/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tier: 'self_serve_49', email }),
  });
  const sessionId = (signup.headers.get('location') ?? '').split('/').pop() as string;
  const session = await stripeApi.complete(sessionId, customer, `sub_${customer}`);
  expect((await a.postEvent(checkoutCompletedEvent(session))).status).toBe(200);
  await a.settle();
  const key = keyIn(mailer.sent.filter((m) => m.to === email)[0]?.text ?? '') as string;
  const found = await a.accounts.findCustomerByCheckoutSession(session.id);
  return { key, customerId: (found as NonNullable<typeof found>).id };
}

/** A dashboard session for the customer, as the sign-in link would start it. */
async function dashboardCookie(customerId: string): Promise<Record<string, string>> {
  const token = `session-${customerId}-${Date.now()}`;
  await a.accounts.createSession({ hash: tokenHash(token), customer_id: customerId, created_at: new Date(), expires_at: new Date(Date.now() + 3_600_000) });
  return { cookie: `catalogue_session=${token}`, origin: 'http://catalogue.test' };
}

const call = (instance: typeof a, key: string) => instance.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });

describe('the key cache on PostgreSQL and Redis, two instances', () => {
  it('checks a cached key with no database round trip', async () => {
    const { key } = await subscribe('cached@example.com', 'cus_cached');
    for (let i = 0; i < 6; i++) expect((await call(i % 2 ? b : a, key)).status).toBe(200);
    const warm = lookups;
    for (let i = 0; i < 40; i++) expect((await call(i % 2 ? b : a, key)).status).toBe(200);
    expect(lookups - warm).toBe(0);
  });

  it('applies suspension, restoration and a tier flip made on one instance on the other’s very next request', async () => {
    const { key } = await subscribe('billing@example.com', 'cus_billing');
    for (let i = 0; i < 4; i++) await call(i % 2 ? b : a, key);
    expect((await call(b, key)).headers.get('x-ratelimit-limit')).toBe('60');

    const now = Math.floor(Date.now() / 1000);
    expect((await a.postEvent(invoiceEvent('invoice.payment_failed', 'cus_billing', now))).status).toBe(200);
    expect((await call(b, key)).status).toBe(402);

    expect((await a.postEvent(invoiceEvent('invoice.payment_succeeded', 'cus_billing', now + 1, PRICES.self_serve_299))).status).toBe(200);
    const restored = await call(b, key);
    expect(restored.status).toBe(200);
    expect(restored.headers.get('x-ratelimit-limit')).toBe('600');
  });

  it('refuses a key rotated or revoked on one instance on the other’s very next request', async () => {
    const { key, customerId } = await subscribe('keys@example.com', 'cus_keys');
    for (let i = 0; i < 4; i++) await call(i % 2 ? b : a, key);
    const [stored] = await a.accounts.listKeys(customerId);
    const headers = await dashboardCookie(customerId);

    const rotated = await a.fetch(`/api/dashboard/keys/${stored?.id}`, { method: 'POST', headers });
    expect(rotated.status).toBe(201);
    const { key: next, id: nextId } = (await rotated.json()) as { key: string; id: string };
    expect((await call(b, key)).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await call(i % 2 ? b : a, next)).status).toBe(200);

    expect((await a.fetch(`/api/dashboard/keys/${nextId}`, { method: 'DELETE', headers })).status).toBe(204);
    const refused = await call(b, next);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'revoked_api_key' });
  });

  it('invalidates every cache when Redis restarts empty, and serves on', async () => {
    const { key } = await subscribe('restart@example.com', 'cus_restart');
    for (let i = 0; i < 6; i++) await call(i % 2 ? b : a, key);
    const warm = lookups;
    await redis.kill();
    await redis.start();
    // The connections come back by themselves; until they do, calls fail open on a store read.
    for (let i = 0; i < 200 && (await call(b, key)).headers.get('x-ratelimit-limit') === null; i++) await new Promise((r) => setTimeout(r, 50));
    expect(lookups).toBeGreaterThan(warm);
    const after = lookups;
    for (let i = 0; i < 10; i++) expect((await call(i % 2 ? b : a, key)).status).toBe(200);
    // Each instance reads once more under the new epoch, then caches again.
    expect(lookups - after).toBeLessThanOrEqual(4);
  });
});
