/**
 * The webhook, outbox, dashboard and usage-job flows of webhook-and-keys.test.ts, with the
 * service's Accounts on PostgreSQL (a fresh database, ten connections so concurrent webhook
 * deliveries race for real). The memory suite stays the reference; this one proves the
 * PostgreSQL port carries the same flows end to end and stores no plaintext secret.
 */
import { type Accounts, GRACE_MS, TIERS } from '@catalogue/core';
import { createMemoryMailer, type MemoryMailer } from '@catalogue/core/memory';
import { createPostgresAccounts, migrate } from '@catalogue/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { expectError } from '../support/service.js';
import { checkoutCompletedEvent, createBillingHarnessOn, invoiceEvent, PRICES, subscriptionEvent } from './support/billing-harness.js';
import { secretsFoundIn } from './support/secret-scan.js';
import { type StripeApiStandIn, startStripeApi } from './support/stripe-api-server.js';

/** Every table the PostgreSQL accounts write. */
const ACCOUNT_TABLES = [
  'customers',
  'api_keys',
  'usage_months',
  'billing_events',
  'reveals',
  'outbox',
  'login_tokens',
  'sessions',
  'overage_cursors',
  'contract_review_claims',
  'search_events',
];

let stripeApi: StripeApiStandIn;
let db: TestDatabase;
let mailer: MemoryMailer;
let h: ReturnType<typeof createBillingHarnessOn<Accounts>>;
let accounts: Accounts;
const secrets: string[] = [];

beforeAll(async () => {
  stripeApi = await startStripeApi();
  db = await createPostgresDatabase({ max: 10 });
  await migrate(db.sql);
  accounts = createPostgresAccounts(db.sql);
  mailer = createMemoryMailer();
  h = createBillingHarnessOn({ stripeApi, mailer }, accounts);
});
afterAll(async () => {
  await stripeApi?.close();
  await db?.drop();
});

const keyIn = (text: string) => text.match(/ck_(?:live|test)_[0-9A-Za-z]{32}/)?.[0] ?? null;
const mailsTo = (email: string) => mailer.sent.filter((m) => m.to === email);

async function buy(email: string, customer = `cus_${email.split('@')[0]}`) {
  const res = await h.fetch('/api/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tier: 'self_serve_49', email }),
  });
  expect(res.status).toBe(303);
  const id = (res.headers.get('location') ?? '').split('/').pop() as string;
  return stripeApi.complete(id, customer, `sub_${customer}`);
}

/** Buys, delivers the checkout event, and returns the customer and the mailed key. */
async function subscribed(email: string, created?: number) {
  const session = await buy(email);
  expect((await h.postEvent(checkoutCompletedEvent(session, created))).status).toBe(200);
  await h.settle();
  const customer = await accounts.findCustomerByCheckoutSession(session.id);
  const key = keyIn(mailsTo(email)[0]?.text ?? '') as string;
  expect(customer).not.toBeNull();
  expect(key).toMatch(/^ck_test_/);
  secrets.push(key);
  return { session, customer: customer as NonNullable<typeof customer>, key };
}

describe('billing flows on PostgreSQL accounts', () => {
  it('20 concurrent deliveries of one checkout event: one customer, one key, one mail, and the key works', async () => {
    const session = await buy('twenty@example.com');
    const event = checkoutCompletedEvent(session);
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.postEvent(event)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    await h.settle();
    const customers = await accounts.findCustomersByEmail('twenty@example.com');
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ tier: 'self_serve_49', status: 'active', stripe_customer_id: 'cus_twenty' });
    expect(await accounts.listKeys(customers[0]?.id as string)).toHaveLength(1);
    const [outbox] = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM outbox WHERE customer_id = ${customers[0]?.id as string}`;
    expect(outbox?.n).toBe(1);
    expect(mailsTo('twenty@example.com')).toHaveLength(1);
    const key = keyIn(mailsTo('twenty@example.com')[0]?.text ?? '') as string;
    secrets.push(key);
    // A later redelivery changes nothing and sends nothing, even after the outbox job runs.
    expect((await h.postEvent(event)).status).toBe(200);
    await h.settle();
    await h.service.runJobs(new Date(h.clock.now() + 60 * 60_000));
    expect(mailsTo('twenty@example.com')).toHaveLength(1);
    expect((await h.fetch('/api/v1/usage', { headers: { 'x-api-key': key } })).status).toBe(200);
  });

  it('out-of-order invoice events converge to the newest state; grace ends in suspension; payment restores', async () => {
    const { customer, key } = await subscribed('order@example.com', 1_000);
    const call = () => h.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });

    await h.postEvent(invoiceEvent('invoice.payment_succeeded', 'cus_order', 2_000, PRICES.self_serve_99));
    await h.postEvent(invoiceEvent('invoice.payment_failed', 'cus_order', 1_500));
    expect(await accounts.getCustomer(customer.id)).toMatchObject({ status: 'active', tier: 'self_serve_99', past_due_since: null });

    await h.postEvent(invoiceEvent('invoice.payment_failed', 'cus_order', 3_000));
    expect(await accounts.getCustomer(customer.id)).toMatchObject({ status: 'past_due', past_due_since: new Date(3_000_000) });
    await expectError(await call(), 402, 'payment_required');
    await h.postEvent(invoiceEvent('invoice.paid', 'cus_order', 2_500));
    expect((await accounts.getCustomer(customer.id))?.status).toBe('past_due');

    await h.service.runJobs(new Date(3_000_000 + GRACE_MS + 1));
    expect((await accounts.listKeys(customer.id)).map((k) => k.status)).toEqual(['suspended']);

    await h.postEvent(invoiceEvent('invoice.payment_succeeded', 'cus_order', 4_000, PRICES.self_serve_299));
    const restored = await call();
    expect(restored.status).toBe(200);
    expect(restored.headers.get('x-ratelimit-limit')).toBe(String(TIERS.self_serve_299.burstPerMinute));
    expect((await accounts.listKeys(customer.id)).map((k) => k.status)).toEqual(['active']);

    await h.postEvent(subscriptionEvent('customer.subscription.deleted', 'cus_order', 6_000, 'canceled'));
    await expectError(await call(), 402, 'payment_required');
  });

  it('retries the outbox with backoff when the transport fails, sends once, and wipes the sealed body', async () => {
    mailer.failNext(2);
    const session = await buy('retry@example.com');
    await h.postEvent(checkoutCompletedEvent(session));
    await h.settle();
    expect(mailsTo('retry@example.com')).toHaveLength(0);
    const [pending] = await db.sql<Array<{ attempts: number; sealed: string }>>`SELECT attempts, sealed FROM outbox WHERE recipient = 'retry@example.com'`;
    expect(pending?.attempts).toBe(1);
    expect(pending?.sealed).not.toBe('');
    h.clock.advance(10 * 60_000);
    await h.service.runJobs(new Date(h.clock.now()));
    await h.service.runJobs(new Date(h.clock.now() + 3_600_000));
    expect(mailsTo('retry@example.com')).toHaveLength(1);
    secrets.push(keyIn(mailsTo('retry@example.com')[0]?.text ?? '') as string);
    const [sent] = await db.sql<Array<{ sealed: string; sent_at: Date | null }>>`SELECT sealed, sent_at FROM outbox WHERE recipient = 'retry@example.com'`;
    expect(sent?.sealed).toBe('');
    expect(sent?.sent_at).not.toBeNull();
  });

  it('dashboard: magic link once, session, reveal once, rotate, settings, revoke', async () => {
    const { key: firstKey } = await subscribed('dash@example.com');
    const login = await h.fetch('/api/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://catalogue.test' },
      body: JSON.stringify({ email: 'DASH@example.com' }),
    });
    expect(login.status).toBe(202);
    await h.settle();
    const link = mailsTo('dash@example.com')[1]?.text.match(/http:\/\/catalogue\.test\/api\/dashboard\/session\?token=[^\s]+/)?.[0] as string;
    expect(link).toBeTruthy();
    secrets.push(decodeURIComponent(new URL(link).searchParams.get('token') as string));
    const signIn = await h.followSignInLink(link);
    expect(signIn.status).toBe(303);
    const cookie = (signIn.headers.get('set-cookie') as string).split(';')[0] as string;
    secrets.push(cookie.split('=')[1] as string);
    expect((await h.followSignInLink(link)).status).toBe(400);

    const auth = { cookie, origin: 'http://catalogue.test' };
    const list = (await (await h.fetch('/api/dashboard/keys', { headers: { cookie } })).json()) as {
      keys: Array<{ id: string }>;
      revealed: Array<{ key: string }>;
    };
    expect(list.revealed.map((r) => r.key)).toEqual([firstKey]);
    const again = (await (await h.fetch('/api/dashboard/keys', { headers: { cookie } })).json()) as { revealed: unknown[] };
    expect(again.revealed).toEqual([]);

    const keyId = list.keys[0]?.id as string;
    const rotated = await h.fetch(`/api/dashboard/keys/${keyId}`, { method: 'POST', headers: auth });
    expect(rotated.status).toBe(201);
    const fresh = (await rotated.json()) as { key: string; id: string };
    secrets.push(fresh.key);
    await expectError(await h.fetch('/api/v1/usage', { headers: { 'x-api-key': firstKey } }), 401, 'revoked_api_key');
    expect((await h.fetch('/api/v1/usage', { headers: { 'x-api-key': fresh.key } })).status).toBe(200);

    const settings = await h.fetch('/api/dashboard/settings', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ overage: 'bill' }),
    });
    expect(await settings.json()).toEqual({ overage: 'bill' });
    // A key id with U+0000 reaches no store (docs/decisions.md §6): PostgreSQL text cannot hold it.
    for (const method of ['DELETE', 'POST']) {
      const refused = await expectError(await h.fetch('/api/dashboard/keys/key_%00', { method, headers: auth }), 400, 'invalid_query');
      expect(refused.details).toEqual([{ path: 'id', message: expect.any(String) }]);
    }
    expect((await h.fetch(`/api/dashboard/keys/${fresh.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expectError(await h.fetch('/api/v1/usage', { headers: { 'x-api-key': fresh.key } }), 401, 'revoked_api_key');
  });

  it('reports overage growth once per identifier and raises one contract review a month', async () => {
    const { customer } = await subscribed('heavy@example.com');
    await accounts.setOverage(customer.id, 'bill');
    const month = new Date(h.clock.now()).toISOString().slice(0, 7);
    await accounts.addUsage(customer.id, 'live', month, 10_250);
    const now = new Date(h.clock.now());
    await h.service.runJobs(now);
    await h.service.runJobs(now);
    const mine = () => [...stripeApi.meterEvents.values()].filter((e) => e.customer === 'cus_heavy').map((e) => e.value);
    expect(mine()).toEqual([250]);
    await accounts.addUsage(customer.id, 'live', month, 100);
    await h.service.runJobs(now);
    expect(mine()).toEqual([250, 100]);
    expect(await accounts.getOverageCursor(customer.id, month)).toEqual({ reported: 350, pending: null });

    const admin = await h.fetch('/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'big@example.com' }),
    });
    const issued = (await admin.json()) as { customer_id: string; key: string };
    secrets.push(issued.key);
    await accounts.addUsage(issued.customer_id, 'live', month, 5_000_001);
    for (let i = 0; i < 3; i++) await h.service.runJobs(now);
    expect(h.alarms.filter((a) => a.kind === 'quota.contract_review' && a.detail.customer_id === issued.customer_id)).toHaveLength(1);
  });

  it('stores no plaintext key, session or link token in any accounts table', async () => {
    expect(secrets.length).toBeGreaterThan(5);
    const tables: Record<string, unknown> = {};
    for (const table of ACCOUNT_TABLES) tables[table] = await db.sql.unsafe(`SELECT to_jsonb(t) AS row FROM ${table} t`);
    expect(JSON.stringify(tables)).toContain('dash@example.com');
    expect(secretsFoundIn({ logs: h.logs, ...tables }, secrets)).toEqual([]);
  });
});
