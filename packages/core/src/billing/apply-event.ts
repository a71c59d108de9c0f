/**
 * What each verified Stripe event does (docs/decisions.md §4). Every effect goes through one
 * atomic Accounts call that also records the event id, so a redelivered or concurrent
 * duplicate changes nothing, and an event older than the customer's last applied one does
 * not undo newer state. Returns the outcome for the log; the webhook answers 200 either way.
 */
import { ulid } from 'ulidx';
import { newKeyRecord } from '../gate/issue-key.js';
import type { BillingChange, BillingEvent, BillingState, MailOutbox, Ports } from '../ports/index.js';
import { keyIssuedMail } from './mail-templates.js';
import { deliverOutboxMessage, outboxContext } from './outbox.js';
import { seal } from './seal.js';
import { REVEAL_TTL_MS } from './tokens.js';

export interface ApplyContext {
  /** Billing state for every event; the outbox for the key mail a checkout hands on at once. */
  ports: Ports<BillingState & MailOutbox>;
  secret: string;
  baseUrl: string;
  /** Runs the mail hand-off after the answer. */
  waitUntil(promise: Promise<unknown>): void;
}

export const revealContext = (customerId: string, keyId: string) => `reveal:${customerId}:${keyId}`;

export async function applyBillingEvent(ctx: ApplyContext, event: BillingEvent): Promise<string> {
  const created = event.created;
  switch (event.type) {
    case 'checkout_completed':
      return completeCheckout(ctx, event);
    case 'payment_failed':
      return change(ctx, event, { eventId: event.id, eventCreated: created, stripeCustomerId: event.stripeCustomerId, status: 'past_due' });
    case 'payment_succeeded':
      return change(ctx, event, {
        eventId: event.id,
        eventCreated: created,
        stripeCustomerId: event.stripeCustomerId,
        status: 'active',
        ...(event.tier ? { tier: event.tier } : {}),
      });
    case 'subscription_updated':
      return change(ctx, event, {
        eventId: event.id,
        eventCreated: created,
        stripeCustomerId: event.stripeCustomerId,
        ...(event.status ? { status: event.status } : {}),
        ...(event.tier ? { tier: event.tier } : {}),
      });
    case 'subscription_deleted':
      return change(ctx, event, { eventId: event.id, eventCreated: created, stripeCustomerId: event.stripeCustomerId, status: 'canceled' });
    case 'ignored':
      return 'ignored';
  }
}

async function change(ctx: ApplyContext, event: BillingEvent, input: BillingChange): Promise<string> {
  const outcome = await ctx.ports.accounts.applyBillingChange(input);
  ctx.ports.logger.log({
    level: outcome === 'unknown_customer' ? 'warn' : 'info',
    kind: 'billing.event',
    event_id: event.id,
    event_type: event.type,
    outcome,
    status: input.status ?? null,
    tier: input.tier ?? null,
  });
  return outcome;
}

async function completeCheckout(ctx: ApplyContext, event: Extract<BillingEvent, { type: 'checkout_completed' }>): Promise<string> {
  const { ports, secret } = ctx;
  const skip = (reason: string) => {
    ports.logger.log({ level: 'warn', kind: 'billing.event', event_id: event.id, event_type: event.type, outcome: 'skipped', reason });
    return 'skipped';
  };
  if (!event.paid) return skip('not_paid');
  if (!event.email) return skip('no_email');
  if (!event.tier) return skip('unknown_tier');

  const now = new Date(ports.clock.now());
  const environment = event.livemode ? 'live' : 'test';
  const { plaintext, record } = newKeyRecord(environment, now);
  const customerId = `cust_${ulid()}`;
  const mailId = `mail_${ulid()}`;
  const { to: _to, ...body } = keyIssuedMail(event.email, plaintext, event.tier, ctx.baseUrl);
  const outcome = await ports.accounts.completeCheckout({
    eventId: event.id,
    eventCreated: event.created,
    checkoutSessionId: event.checkoutSessionId,
    stripeCustomerId: event.stripeCustomerId,
    stripeSubscriptionId: event.subscriptionId,
    customer: { id: customerId, email: event.email, name: null, tier: event.tier, overage: 'block', limits: null, created_at: now },
    key: record,
    reveal: { sealed: await seal(secret, plaintext, revealContext(customerId, record.id)), expires_at: new Date(now.getTime() + REVEAL_TTL_MS) },
    mail: { id: mailId, to: event.email, sealed: await seal(secret, JSON.stringify(body), outboxContext(mailId)), created_at: now },
  });
  if (outcome.outcome !== 'applied') return skip(outcome.outcome);
  ports.logger.log({
    level: 'info',
    kind: 'billing.key_issued',
    event_id: event.id,
    customer_id: outcome.customer.id,
    key_id: outcome.key.id,
    key_prefix: outcome.key.display_prefix,
    tier: outcome.customer.tier,
  });
  ctx.waitUntil(deliverOutboxMessage(ports, secret, outcome.mailId));
  return 'applied';
}
