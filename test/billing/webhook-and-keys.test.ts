import { GRACE_MS, sha256Hex, TIERS } from '@catalogue/core';
import { createMemoryMailer } from '@catalogue/core/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/service.js';
import { type BillingHarness, checkoutCompletedEvent, createBillingHarness, invoiceEvent, PRICES, subscriptionEvent } from './support/billing-harness.js';
import { secretsFoundIn } from './support/secret-scan.js';
import { type SmtpInbox, startSmtpInbox } from './support/smtp-inbox.js';
import { type StripeApiStandIn, startStripeApi } from './support/stripe-api-server.js';

let stripeApi: StripeApiStandIn;
let inbox: SmtpInbox;
let h: BillingHarness;
/** Every secret this suite saw in clear; the final scan looks for each of them. */
const secrets: string[] = [];

beforeAll(async () => {
  stripeApi = await startStripeApi();
  inbox = await startSmtpInbox();
  h = createBillingHarness({ stripeApi, mailTransport: inbox.url });
});
afterAll(async () => {
  await stripeApi?.close();
  await inbox?.close();
});

const keyIn = (text: string) => text.match(/ck_(?:live|test)_[0-9A-Za-z]{32}/)?.[0] ?? null;

/** Signup through the route, then the buyer pays: returns the completed Checkout Session. */
async function buy(email: string, tier: 'self_serve_49' | 'self_serve_99' = 'self_serve_49', customer = `cus_${email.split('@')[0]}`) {
  const res = await h.fetch('/api/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ tier, email }),
  });
  expect(res.status).toBe(303);
  const id = (res.headers.get('location') ?? '').split('/').pop() as string;
  return stripeApi.complete(id, customer, `sub_${customer}`);
}

describe('signup', () => {
  it('GET /api/signup is the plan page with a labelled form per self-serve tier', async () => {
    const res = await h.fetch('/api/signup');
    expect(res.status).toBe(200);
    const page = await res.text();
    for (const tier of ['self_serve_49', 'self_serve_99', 'self_serve_299']) expect(page).toContain(`value="${tier}"`);
    expect(page).toMatch(/<label for="email-self_serve_49">/);
  });

  it('POST creates a subscription Checkout Session with the tier price and answers 303 to it', async () => {
    const res = await h.fetch('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tier: 'self_serve_99', email: 'ann@example.com' }),
    });
    expect(res.status).toBe(303);
    const session = [...stripeApi.sessions.values()].find((s) => s.customer_email === 'ann@example.com');
    expect(res.headers.get('location')).toBe(session?.url);
    expect(session).toMatchObject({
      mode: 'subscription',
      line_items_price: PRICES.self_serve_99,
      metadata: { tier: 'self_serve_99' },
      subscription_metadata_tier: 'self_serve_99',
    });
    expect(session?.success_url).toBe('http://catalogue.test/dashboard/welcome?session_id={CHECKOUT_SESSION_ID}');
  });

  it('refuses the contract tier and a bad e-mail; answers 503 billing_unavailable without Stripe', async () => {
    const bad = await h.fetch('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tier: 'contract_2000', email: 'nope' }),
    });
    const body = await expectError(bad, 400, 'invalid_body');
    expect((body.details as Array<{ path: string }>).map((d) => d.path).sort()).toEqual(['email', 'tier']);
    const { createTestService } = await import('@catalogue/core/memory');
    const bare = createTestService();
    await expectError(
      await bare.fetch('/api/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tier: 'self_serve_49', email: 'a@example.com' }),
      }),
      503,
      'billing_unavailable',
    );
  });
});

describe('webhook', () => {
  it('without Stripe configured answers 503 billing_unavailable with Retry-After, as its document says (issue 28 item 1)', async () => {
    const { createTestService } = await import('@catalogue/core/memory');
    const bare = createTestService();
    const res = await bare.fetch('/api/v1/stripe/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    await expectError(res, 503, 'billing_unavailable');
    expect(res.headers.get('retry-after')).toBe('5');
  });

  it('refuses a body over 64 KB with 413, counting bytes even when Content-Length is absent', async () => {
    const huge = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('x'.repeat(64 * 1024 + 1)));
        c.close();
      },
    });
    const res = await h.service.fetch(
      new Request(`${h.baseUrl}/api/v1/stripe/webhook`, {
        method: 'POST',
        body: huge,
        duplex: 'half',
        headers: { 'stripe-signature': 't=1,v1=00' },
      } as RequestInit),
    );
    await expectError(res, 413, 'payload_too_large');
  });

  it('refuses a wrong secret, a stale timestamp and a missing header with 400 invalid_signature', async () => {
    const event = subscriptionEvent('customer.subscription.deleted', 'cus_nobody', Math.floor(Date.now() / 1000), 'canceled');
    await expectError(await h.postEvent(event, { secret: 'whsec_wrong' }), 400, 'invalid_signature');
    await expectError(await h.postEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }), 400, 'invalid_signature');
    const unsigned = await h.service.fetch(new Request(`${h.baseUrl}/api/v1/stripe/webhook`, { method: 'POST', body: JSON.stringify(event) }));
    await expectError(unsigned, 400, 'invalid_signature');
  });

  it('answers 200 {received: true} to an ignored event type', async () => {
    const res = await h.postEvent({
      id: 'evt_ignored_1',
      object: 'event',
      type: 'charge.refunded',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: {} },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
  });

  it('20 concurrent deliveries of one checkout event: one customer, one key, one mail (over SMTP), and the key works', async () => {
    const session = await buy('twenty@example.com');
    const event = checkoutCompletedEvent(session);
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.postEvent(event)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    await h.settle();
    const customers = [...h.accounts.customers.values()].filter((c) => c.email === 'twenty@example.com');
    expect(customers).toHaveLength(1);
    expect(customers[0]).toMatchObject({ tier: 'self_serve_49', status: 'active', stripe_customer_id: 'cus_twenty' });
    expect(await h.accounts.listKeys(customers[0]?.id as string)).toHaveLength(1);
    const [mail] = await inbox.waitFor('twenty@example.com');
    const key = keyIn(mail?.text ?? '') as string;
    expect(key).toMatch(/^ck_test_/);
    secrets.push(key);
    // A later redelivery (new signature, same event id) changes nothing and sends nothing.
    expect((await h.postEvent(event)).status).toBe(200);
    await h.settle();
    await h.service.runJobs(new Date(h.clock.now() + 60 * 60_000));
    expect(inbox.mails.filter((m) => m.to.includes('twenty@example.com'))).toHaveLength(1);
    const usage = await h.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });
    expect(usage.status).toBe(200);
    expect(h.logs.filter((l) => l.kind === 'billing.key_issued')).toHaveLength(1);
  });

  it('out-of-order payment_failed / payment_succeeded converge to the newest state; grace ends in suspension; payment restores', async () => {
    const session = await buy('order@example.com');
    expect((await h.postEvent(checkoutCompletedEvent(session, 1_000))).status).toBe(200);
    await h.settle();
    const customer = (await h.accounts.findCustomerByCheckoutSession(session.id))!;
    const [mail] = await inbox.waitFor('order@example.com');
    const key = keyIn(mail?.text ?? '') as string;
    secrets.push(key);
    const call = () => h.fetch('/api/v1/usage', { headers: { 'x-api-key': key } });

    // Newer success delivered first, older failure second: stays active.
    await h.postEvent(invoiceEvent('invoice.payment_succeeded', 'cus_order', 2_000, PRICES.self_serve_99));
    await h.postEvent(invoiceEvent('invoice.payment_failed', 'cus_order', 1_500));
    expect(await h.accounts.getCustomer(customer.id)).toMatchObject({ status: 'active', tier: 'self_serve_99', past_due_since: null });
    expect((await call()).status).toBe(200);

    // A newer failure: 402 at once, grace window from the event time.
    await h.postEvent(invoiceEvent('invoice.payment_failed', 'cus_order', 3_000));
    expect(await h.accounts.getCustomer(customer.id)).toMatchObject({ status: 'past_due', past_due_since: new Date(3_000_000) });
    await expectError(await call(), 402, 'payment_required');
    // An older success arriving late does not undo it.
    await h.postEvent(invoiceEvent('invoice.paid', 'cus_order', 2_500));
    expect((await h.accounts.getCustomer(customer.id))?.status).toBe('past_due');

    // runJobs persists the end of the grace window.
    await h.service.runJobs(new Date(3_000_000 + GRACE_MS + 1));
    expect((await h.accounts.listKeys(customer.id)).map((k) => k.status)).toEqual(['suspended']);
    await expectError(await call(), 402, 'payment_required');

    // Payment restores at once, and the tier flips at the gate on the next request.
    await h.postEvent(invoiceEvent('invoice.payment_succeeded', 'cus_order', 4_000, PRICES.self_serve_299));
    const restored = await call();
    expect(restored.status).toBe(200);
    expect(restored.headers.get('x-ratelimit-limit')).toBe(String(TIERS.self_serve_299.burstPerMinute));
    expect((await h.accounts.listKeys(customer.id)).map((k) => k.status)).toEqual(['active']);

    // Subscription updates move tier and status; deletion cancels.
    await h.postEvent(subscriptionEvent('customer.subscription.updated', 'cus_order', 5_000, 'active', PRICES.self_serve_49));
    expect((await call()).headers.get('x-ratelimit-limit')).toBe(String(TIERS.self_serve_49.burstPerMinute));
    await h.postEvent(subscriptionEvent('customer.subscription.deleted', 'cus_order', 6_000, 'canceled'));
    await expectError(await call(), 402, 'payment_required');
  });

  it('retries the outbox with backoff when the transport fails, and sends the mail exactly once', async () => {
    const mailer = createMemoryMailer();
    const retry = createBillingHarness({ stripeApi, mailer });
    mailer.failNext(2);
    const session = await (async () => {
      const res = await retry.fetch('/api/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tier: 'self_serve_49', email: 'retry@example.com' }),
      });
      const id = (res.headers.get('location') ?? '').split('/').pop() as string;
      return stripeApi.complete(id, 'cus_retry', 'sub_retry');
    })();
    await retry.postEvent(checkoutCompletedEvent(session));
    await retry.settle();
    expect(mailer.sent).toHaveLength(0);
    const retryLog = retry.logs.find((l) => l.kind === 'mail.retry');
    expect(retryLog).toMatchObject({ attempts: 1 });
    // Not due yet: nothing happens.
    await retry.service.runJobs(new Date(retry.clock.now() + 10_000));
    expect(retry.logs.filter((l) => l.kind === 'mail.retry')).toHaveLength(1);
    await retry.service.runJobs(new Date(retry.clock.now() + 31_000));
    expect(retry.logs.filter((l) => l.kind === 'mail.retry')).toHaveLength(2);
    retry.clock.advance(10 * 60_000);
    await retry.service.runJobs(new Date(retry.clock.now()));
    await retry.service.runJobs(new Date(retry.clock.now() + 3_600_000));
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.to).toBe('retry@example.com');
    secrets.push(keyIn(mailer.sent[0]?.text ?? '') as string);
    const outbox = retry.accounts.tables().outbox as Array<{ sealed: string; sent_at: Date | null }>;
    expect(outbox).toMatchObject([{ sealed: '' }]);
    expect(outbox[0]?.sent_at).not.toBeNull();
    expect(secretsFoundIn({ logs: retry.logs, tables: retry.accounts.tables() }, secrets)).toEqual([]);
  });
});

describe('dashboard over the API', () => {
  it('magic link, session cookie, Origin check, rotate (old key 401 at once), revoke, usage and settings', async () => {
    const session = await buy('dash@example.com');
    await h.postEvent(checkoutCompletedEvent(session));
    await h.settle();
    const [keyMail] = await inbox.waitFor('dash@example.com');
    const firstKey = keyIn(keyMail?.text ?? '') as string;
    secrets.push(firstKey);

    // Unknown addresses get the same 202 and no mail.
    const unknown = await h.fetch('/api/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://catalogue.test' },
      body: JSON.stringify({ email: 'stranger@example.com' }),
    });
    expect(unknown.status).toBe(202);
    const login = await h.fetch('/api/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://catalogue.test' },
      body: JSON.stringify({ email: 'DASH@example.com' }),
    });
    expect(login.status).toBe(202);
    await h.settle();
    const mails = await inbox.waitFor('dash@example.com', 2);
    const link = mails[1]?.text.match(/http:\/\/catalogue\.test\/api\/dashboard\/session\?token=[^\s]+/)?.[0] as string;
    expect(link).toBeTruthy();
    const linkToken = decodeURIComponent(new URL(link).searchParams.get('token') as string);
    secrets.push(linkToken);
    expect(inbox.mails.some((m) => m.to.includes('stranger@example.com'))).toBe(false);

    const signIn = await h.followSignInLink(link);
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('location')).toBe('/dashboard');
    const setCookie = signIn.headers.get('set-cookie') as string;
    expect(setCookie).toMatch(/HttpOnly; SameSite=Strict; Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // BASE_URL is http
    const cookie = setCookie.split(';')[0] as string;
    secrets.push(cookie.split('=')[1] as string);
    // Single use.
    expect((await h.followSignInLink(link)).status).toBe(400);

    const auth = { cookie, origin: 'http://catalogue.test' };
    await expectError(await h.fetch('/api/dashboard/keys'), 401, 'unauthorized');
    const listed = await h.fetch('/api/dashboard/keys', { headers: { cookie } });
    const list = (await listed.json()) as { keys: Array<{ id: string; display_prefix: string }>; revealed: Array<{ key: string }> };
    expect(list.keys).toHaveLength(1);
    expect(list.keys[0]?.display_prefix).toBe(firstKey.slice(0, 12));
    // First dashboard load reveals the checkout key once, then never again.
    expect(list.revealed.map((r) => r.key)).toEqual([firstKey]);
    const again = (await (await h.fetch('/api/dashboard/keys', { headers: { cookie } })).json()) as { revealed: unknown[] };
    expect(again.revealed).toEqual([]);
    expect(JSON.stringify(again)).not.toContain(firstKey);

    const keyId = list.keys[0]?.id as string;
    await expectError(
      await h.fetch(`/api/dashboard/keys/${keyId}`, { method: 'POST', headers: { cookie, origin: 'https://evil.example' } }),
      401,
      'unauthorized',
    );
    await expectError(await h.fetch(`/api/dashboard/keys/${keyId}`, { method: 'POST', headers: { cookie } }), 401, 'unauthorized');
    const rotated = await h.fetch(`/api/dashboard/keys/${keyId}`, { method: 'POST', headers: auth });
    expect(rotated.status).toBe(201);
    const fresh = (await rotated.json()) as { key: string; id: string; display_prefix: string; replaces: string };
    secrets.push(fresh.key);
    expect(fresh).toMatchObject({ replaces: keyId, display_prefix: fresh.key.slice(0, 12) });
    await expectError(await h.fetch('/api/v1/usage', { headers: { 'x-api-key': firstKey } }), 401, 'revoked_api_key');
    expect((await h.fetch('/api/v1/usage', { headers: { 'x-api-key': fresh.key } })).status).toBe(200);

    const usage = (await (await h.fetch('/api/dashboard/usage', { headers: { cookie } })).json()) as {
      quota_per_month: number;
      months: Array<{ live: number; test: number }>;
    };
    expect(usage.quota_per_month).toBe(10_000);
    expect(usage.months).toHaveLength(6);

    const settings = await h.fetch('/api/dashboard/settings', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ overage: 'bill' }),
    });
    expect(await settings.json()).toEqual({ overage: 'bill' });

    expect((await h.fetch(`/api/dashboard/keys/${fresh.id}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    await expectError(await h.fetch('/api/v1/usage', { headers: { 'x-api-key': fresh.key } }), 401, 'revoked_api_key');
    expect(
      (await h.fetch(`/api/dashboard/keys/${fresh.id}`, { method: 'DELETE', headers: { cookie: 'catalogue_session=forged', origin: auth.origin } })).status,
    ).toBe(401);
  });
});

describe('overage and contract review', () => {
  it('reports a bill customer past quota as meter events with idempotent identifiers, only the growth', async () => {
    const session = await buy('heavy@example.com');
    await h.postEvent(checkoutCompletedEvent(session));
    await h.settle();
    const customer = (await h.accounts.findCustomerByCheckoutSession(session.id))!;
    await h.accounts.setOverage(customer.id, 'bill');
    const month = new Date(h.clock.now()).toISOString().slice(0, 7);
    await h.accounts.addUsage(customer.id, 'live', month, 10_250);
    const now = new Date(h.clock.now());
    await h.service.runJobs(now);
    await h.service.runJobs(now);
    const mine = () => [...stripeApi.meterEvents.entries()].filter(([, e]) => e.customer === 'cus_heavy');
    expect(mine().map(([, e]) => e.value)).toEqual([250]);
    await h.accounts.addUsage(customer.id, 'live', month, 100);
    await h.service.runJobs(now);
    expect(mine().map(([, e]) => e.value)).toEqual([250, 100]);
    expect(mine().map(([id]) => id)).toEqual([`overage_${customer.id}_${month}_250`, `overage_${customer.id}_${month}_350`]);
    // A report begun but never confirmed is resent with the same identifier: counted once.
    expect(await h.accounts.setOveragePending(customer.id, month, 400, 350)).toBe(true);
    // A second claim from the same cursor (another instance) is refused while that one is pending.
    expect(await h.accounts.setOveragePending(customer.id, month, 420, 350)).toBe(false);
    const requestsBefore = stripeApi.meterRequests;
    await h.service.runJobs(now);
    expect(stripeApi.meterRequests).toBeGreaterThan(requestsBefore);
    expect(mine().map(([, e]) => e.value)).toEqual([250, 100, 50]);
  });

  it('a contract customer past 5,000,000 calls raises quota.contract_review once a month', async () => {
    const admin = await h.fetch('/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: 'Bearer test-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'big@example.com' }),
    });
    const issued = (await admin.json()) as { customer_id: string; key: string };
    secrets.push(issued.key);
    const month = new Date(h.clock.now()).toISOString().slice(0, 7);
    await h.accounts.addUsage(issued.customer_id, 'live', month, 5_000_001);
    for (let i = 0; i < 3; i++) await h.service.runJobs(new Date(h.clock.now()));
    expect(h.alarms.filter((a) => a.kind === 'quota.contract_review' && a.detail.customer_id === issued.customer_id)).toHaveLength(1);
    expect(await h.accounts.claimContractReview(issued.customer_id, month)).toBe(false);
  });
});

describe('no plaintext secret at rest or in logs', () => {
  it('finds none of the keys, session or link tokens of this suite in the logs or any accounts table', () => {
    expect(secrets.length).toBeGreaterThan(5);
    const hashes = secrets.map((s) => sha256Hex(s));
    expect(hashes.length).toBe(secrets.length);
    expect(secretsFoundIn({ logs: h.logs, tables: h.accounts.tables() }, secrets)).toEqual([]);
  });
});
