/**
 * A service wired the way a host wires it for billing: memory Accounts and Limiter, the real
 * Stripe Billing port pointed at the local stand-in, and a mailer (the real smtp:// transport
 * unless a test swaps it). Webhook events are signed with the `stripe` package itself.
 */
import { type Accounts, createService, type Limiter, type LogRecord, type Mailer, type RequestContextInput } from '@catalogue/core';
import { createManualClock, createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter, type MemoryAccounts } from '@catalogue/core/memory';
import { createStripeBilling, mailerFromTransport } from '@catalogue/stripe';
import Stripe from 'stripe';
import { fixtureData } from '../../support/fixture-data.js';
import { followSignInLink } from '../../support/sign-in-link.js';
import type { StripeApiStandIn } from './stripe-api-server.js';

export const WEBHOOK_SECRET = 'whsec_test_catalogue_billing_suite';
export const PRICES = { self_serve_49: 'price_49', self_serve_99: 'price_99', self_serve_299: 'price_299' } as const;
/** 32 bytes, hex: SECRET_KEY as a host would pass it. */
export const SECRET_KEY = 'a3f1c2e4b5d6978812345678abcdef0123456789abcdef0123456789abcdef01';

const stripeForSigning = new Stripe('sk_test_signing_only');

export interface HarnessOptions {
  stripeApi: StripeApiStandIn;
  mailTransport?: string;
  mailer?: Mailer;
  baseUrl?: string;
  now?: string;
  /** The limiter (default: a memory limiter); e.g. a Redis limiter shared by two harnesses. */
  limiter?: Limiter;
}

export function createBillingHarness(options: HarnessOptions) {
  return createBillingHarnessOn<MemoryAccounts>(options, createMemoryAccounts());
}

/** The same harness with another Accounts implementation (e.g. PostgreSQL). */
export function createBillingHarnessOn<A extends Accounts>(options: HarnessOptions, accounts: A) {
  const logs: LogRecord[] = [];
  const alarms: Array<{ kind: string; detail: Record<string, unknown> }> = [];
  const logger = { log: (r: LogRecord) => logs.push(r) };
  const limiter = options.limiter ?? createMemoryLimiter();
  const clock = createManualClock(options.now ?? '2026-03-10T12:00:00Z');
  const mailer = options.mailer ?? mailerFromTransport(options.mailTransport, { from: 'keys@catalogue.test', logger });
  const billing = createStripeBilling({
    apiKey: 'sk_test_catalogue',
    webhookSecret: WEBHOOK_SECRET,
    prices: PRICES,
    apiBase: options.stripeApi.url,
    meterEventName: 'catalogue_overage_calls',
  });
  const baseUrl = options.baseUrl ?? 'http://catalogue.test';
  const service = createService(
    {
      catalogue: createMemoryCatalogue(fixtureData()),
      accounts,
      limiter,
      clock,
      logger,
      billing,
      ...(mailer ? { mailer } : {}),
      alarm: { raise: (kind, detail) => alarms.push({ kind, detail }) },
    },
    { baseUrl, adminToken: 'test-admin-token', secretKey: SECRET_KEY },
  );
  const pending: Array<Promise<unknown>> = [];
  const context: RequestContextInput = { clientIp: '203.0.113.9', waitUntil: (p) => void pending.push(p) };

  return {
    service,
    accounts,
    limiter,
    clock,
    logs,
    alarms,
    baseUrl,
    fetch(path: string, init?: RequestInit) {
      return service.fetch(new Request(baseUrl + path, init), context);
    },
    /** Follows a mailed sign-in link as a browser does: its page, then its button. */
    followSignInLink(link: string): Promise<Response> {
      return followSignInLink((path, init) => service.fetch(new Request(baseUrl + path, init), context), link, new URL(baseUrl).origin);
    },
    /** Waits for the work the service handed to waitUntil (mail hand-offs). */
    async settle() {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
    /** Posts an event signed like Stripe signs it (timestamp from the real clock: Stripe's tolerance is wall time). */
    postEvent(event: object, sign: { secret?: string; timestamp?: number } = {}) {
      const payload = JSON.stringify(event);
      const header = stripeForSigning.webhooks.generateTestHeaderString({
        payload,
        secret: sign.secret ?? WEBHOOK_SECRET,
        ...(sign.timestamp ? { timestamp: sign.timestamp } : {}),
      });
      return service.fetch(
        new Request(`${baseUrl}/api/v1/stripe/webhook`, {
          method: 'POST',
          body: payload,
          headers: { 'stripe-signature': header, 'content-type': 'application/json' },
        }),
        context,
      );
    },
  };
}

export type BillingHarness = ReturnType<typeof createBillingHarness>;

let seq = 0;
const eventId = () => `evt_test_${Date.now()}_${++seq}`;

export function checkoutCompletedEvent(
  session: { id: string; customer: string | null; subscription: string | null; customer_email: string | null; metadata: Record<string, string> },
  created = Math.floor(Date.now() / 1000),
) {
  return {
    id: eventId(),
    object: 'event',
    type: 'checkout.session.completed',
    created,
    livemode: false,
    api_version: '2026-01-28.clover',
    data: {
      object: {
        ...session,
        object: 'checkout.session',
        status: 'complete',
        payment_status: 'paid',
        mode: 'subscription',
        customer_details: { email: session.customer_email },
      },
    },
  };
}

export function invoiceEvent(
  type: 'invoice.payment_failed' | 'invoice.payment_succeeded' | 'invoice.paid',
  customer: string,
  created: number,
  price: string = PRICES.self_serve_49,
) {
  return {
    id: eventId(),
    object: 'event',
    type,
    created,
    livemode: false,
    data: {
      object: {
        id: `in_${seq}`,
        object: 'invoice',
        customer,
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
        lines: {
          object: 'list',
          data: [{ id: `il_${seq}`, object: 'line_item', pricing: { type: 'price_details', price_details: { price, product: 'prod_1' } } }],
        },
      },
    },
  };
}

export function subscriptionEvent(
  type: 'customer.subscription.updated' | 'customer.subscription.deleted',
  customer: string,
  created: number,
  status: string,
  price: string = PRICES.self_serve_49,
) {
  return {
    id: eventId(),
    object: 'event',
    type,
    created,
    livemode: false,
    data: { object: { id: 'sub_1', object: 'subscription', customer, status, items: { object: 'list', data: [{ id: 'si_1', price: { id: price } }] } } },
  };
}
