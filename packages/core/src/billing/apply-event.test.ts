/**
 * What each verified Stripe event does (apply-event.ts): the change it asks of the accounts
 * store, what is logged, and for a paid checkout the key, its sealed reveal and its mail.
 */
import { describe, expect, it } from 'vitest';
import type {
  Accounts,
  ApiKey,
  BillingChange,
  BillingChangeOutcome,
  BillingEvent,
  CheckoutCompletion,
  CheckoutOutcome,
  Customer,
  LogRecord,
  Ports,
} from '../ports/index.js';
import { applyBillingEvent, revealContext } from './apply-event.js';
import { outboxContext } from './outbox.js';
import { unseal } from './seal.js';
import { REVEAL_TTL_MS } from './tokens.js';

const SECRET = 'e'.repeat(64);
const NOW = Date.UTC(2026, 2, 10, 12);
const CREATED = new Date(NOW - 60_000);

function setup(changeOutcome: BillingChangeOutcome = 'applied', checkout: 'applied' | 'duplicate_event' = 'applied') {
  const changes: BillingChange[] = [];
  const completions: CheckoutCompletion[] = [];
  const claims: unknown[][] = [];
  const logs: LogRecord[] = [];
  const waited: Array<Promise<unknown>> = [];
  const ports = {
    clock: { now: () => NOW },
    accounts: {
      applyBillingChange: async (input: BillingChange) => {
        changes.push(input);
        return changeOutcome;
      },
      completeCheckout: async (input: CheckoutCompletion): Promise<CheckoutOutcome> => {
        completions.push(input);
        if (checkout !== 'applied') return { outcome: checkout };
        return {
          outcome: 'applied',
          customer: { ...input.customer, status: 'active', past_due_since: null } as Customer,
          key: { ...input.key, customer_id: input.customer.id, status: 'active' } as ApiKey,
          mailId: input.mail.id,
        };
      },
      claimOutbox: async (...args: unknown[]) => {
        claims.push(args);
        return [];
      },
    },
    logger: { log: (r: LogRecord) => logs.push(r) },
  } as unknown as Ports<Accounts>;
  const ctx = { ports, secret: SECRET, baseUrl: 'https://api.example', waitUntil: (p: Promise<unknown>) => waited.push(p) };
  return { ctx, changes, completions, claims, logs, waited };
}

const base = { id: 'evt_1', created: CREATED, livemode: true };
const checkout = (over: Partial<Extract<BillingEvent, { type: 'checkout_completed' }>> = {}): BillingEvent => ({
  ...base,
  type: 'checkout_completed',
  checkoutSessionId: 'cs_1',
  stripeCustomerId: 'cus_1',
  subscriptionId: 'sub_1',
  email: 'buyer@example.com',
  tier: 'self_serve_99',
  paid: true,
  ...over,
});

describe('applyBillingEvent: subscription changes', () => {
  it.each([
    [{ type: 'payment_failed', stripeCustomerId: 'cus_1' }, { status: 'past_due' }],
    [{ type: 'payment_succeeded', stripeCustomerId: 'cus_1', tier: null }, { status: 'active' }],
    [
      { type: 'payment_succeeded', stripeCustomerId: 'cus_1', tier: 'self_serve_299' },
      { status: 'active', tier: 'self_serve_299' },
    ],
    [{ type: 'subscription_updated', stripeCustomerId: 'cus_1', tier: null, status: null }, {}],
    [
      { type: 'subscription_updated', stripeCustomerId: 'cus_1', tier: 'self_serve_49', status: 'past_due' },
      { status: 'past_due', tier: 'self_serve_49' },
    ],
    [{ type: 'subscription_deleted', stripeCustomerId: 'cus_1' }, { status: 'canceled' }],
  ] as const)('%o asks for %o', async (event, asked) => {
    const t = setup();
    expect(await applyBillingEvent(t.ctx, { ...base, ...event } as BillingEvent)).toBe('applied');
    expect(t.changes).toEqual([{ eventId: 'evt_1', eventCreated: CREATED, stripeCustomerId: 'cus_1', ...asked }]);
    expect(t.logs).toEqual([
      {
        level: 'info',
        kind: 'billing.event',
        event_id: 'evt_1',
        event_type: event.type,
        outcome: 'applied',
        status: 'status' in asked ? asked.status : null,
        tier: 'tier' in asked ? asked.tier : null,
      },
    ]);
  });

  it('answers the store’s outcome; an unknown customer is logged as a warning', async () => {
    for (const outcome of ['duplicate_event', 'stale'] as const) {
      const t = setup(outcome);
      expect(await applyBillingEvent(t.ctx, { ...base, type: 'payment_failed', stripeCustomerId: 'cus_1' })).toBe(outcome);
      expect(t.logs[0]).toMatchObject({ level: 'info', outcome });
    }
    const t = setup('unknown_customer');
    expect(await applyBillingEvent(t.ctx, { ...base, type: 'subscription_deleted', stripeCustomerId: 'cus_x' })).toBe('unknown_customer');
    expect(t.logs[0]).toMatchObject({ level: 'warn', outcome: 'unknown_customer' });
  });

  it('an ignored event changes and logs nothing', async () => {
    const t = setup();
    expect(await applyBillingEvent(t.ctx, { ...base, type: 'ignored', stripeType: 'customer.created' })).toBe('ignored');
    expect([t.changes, t.logs]).toEqual([[], []]);
  });
});

describe('applyBillingEvent: checkout completed', () => {
  it('a paid checkout: a block-mode customer, a key of the mode’s environment, its reveal and mail sealed to their rows', async () => {
    const t = setup();
    expect(await applyBillingEvent(t.ctx, checkout())).toBe('applied');
    const [done] = t.completions as [CheckoutCompletion];
    expect(done).toMatchObject({
      eventId: 'evt_1',
      eventCreated: CREATED,
      checkoutSessionId: 'cs_1',
      stripeCustomerId: 'cus_1',
      stripeSubscriptionId: 'sub_1',
      customer: { email: 'buyer@example.com', name: null, tier: 'self_serve_99', overage: 'block', limits: null, created_at: new Date(NOW) },
      key: { environment: 'live', created_at: new Date(NOW) },
      reveal: { expires_at: new Date(NOW + REVEAL_TTL_MS) },
      mail: { to: 'buyer@example.com', created_at: new Date(NOW) },
    });
    expect(done.customer.id).toMatch(/^cust_[0-9A-Z]{26}$/);
    expect(done.mail.id).toMatch(/^mail_[0-9A-Z]{26}$/);
    const plaintext = await unseal(SECRET, done.reveal.sealed, revealContext(done.customer.id, done.key.id));
    expect(plaintext).toMatch(/^ck_live_[0-9A-Za-z]{32}$/);
    expect(plaintext.slice(0, 12)).toBe(done.key.display_prefix);
    const mail = JSON.parse(await unseal(SECRET, done.mail.sealed, outboxContext(done.mail.id)));
    expect(Object.keys(mail).sort()).toEqual(['subject', 'text']);
    expect(mail.text).toContain(plaintext);
    expect(mail.text).toContain('https://api.example/dashboard');
    expect(t.logs).toEqual([
      {
        level: 'info',
        kind: 'billing.key_issued',
        event_id: 'evt_1',
        customer_id: done.customer.id,
        key_id: done.key.id,
        key_prefix: done.key.display_prefix,
        tier: 'self_serve_99',
      },
    ]);
    // The mail is handed over after the answer: that one row is claimed.
    expect(t.waited).toHaveLength(1);
    await Promise.all(t.waited);
    expect(t.claims).toEqual([[new Date(NOW), new Date(NOW + 120_000), 1, done.mail.id]]);
    expect(revealContext('c', 'k')).toBe('reveal:c:k');
  });

  it('a test-mode checkout issues a ck_test_ key', async () => {
    const t = setup();
    await applyBillingEvent(t.ctx, checkout({ livemode: false }));
    const [done] = t.completions as [CheckoutCompletion];
    expect(done.key.environment).toBe('test');
    expect(await unseal(SECRET, done.reveal.sealed, revealContext(done.customer.id, done.key.id))).toMatch(/^ck_test_/);
  });

  it.each([
    ['not_paid', { paid: false }],
    ['no_email', { email: null }],
    ['no_email', { email: '' }],
    ['unknown_tier', { tier: null }],
  ] as const)('skipped (%s) without touching the store', async (reason, over) => {
    const t = setup();
    expect(await applyBillingEvent(t.ctx, checkout(over))).toBe('skipped');
    expect(t.completions).toEqual([]);
    expect(t.logs).toEqual([{ level: 'warn', kind: 'billing.event', event_id: 'evt_1', event_type: 'checkout_completed', outcome: 'skipped', reason }]);
  });

  it('a duplicate is skipped with the store’s reason, no mail handed over', async () => {
    const t = setup('applied', 'duplicate_event');
    expect(await applyBillingEvent(t.ctx, checkout())).toBe('skipped');
    expect(t.logs).toEqual([
      { level: 'warn', kind: 'billing.event', event_id: 'evt_1', event_type: 'checkout_completed', outcome: 'skipped', reason: 'duplicate_event' },
    ]);
    expect(t.waited).toEqual([]);
  });
});
