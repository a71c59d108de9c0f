/**
 * The Billing port on the `stripe` package. Works in every host: requests go through the
 * package's fetch client and webhook signatures are checked with WebCrypto
 * (constructEventAsync + a SubtleCrypto provider). STRIPE_API_BASE points the client at
 * another server (tests run a local stand-in for Stripe's API).
 */
import type { Billing, BillingEvent, CheckoutRequest, CheckoutSessionInfo, OverageReport, TierId } from '@catalogue/core';
import Stripe from 'stripe';
import { normalizeEvent, type StripeEventLike } from './normalize-event.js';

/** Stripe's recommended replay window for webhook signatures. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeBillingOptions {
  /** STRIPE_SECRET_KEY (sk_live_… / sk_test_…). */
  apiKey: string;
  /** STRIPE_WEBHOOK_SECRET (whsec_…). */
  webhookSecret: string;
  /** STRIPE_PRICE_SELF_SERVE_49 / _99 / _299: the recurring price of each self-serve tier. */
  prices: Partial<Record<TierId, string>>;
  /** STRIPE_METER_EVENT: event name of the overage billing meter. */
  meterEventName?: string;
  /** STRIPE_API_BASE, e.g. http://127.0.0.1:12111 — default Stripe's own API. */
  apiBase?: string | null;
}

export function createStripeBilling(options: StripeBillingOptions): Billing {
  const base = options.apiBase ? new URL(options.apiBase) : null;
  const stripe = new Stripe(options.apiKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? 'http' : 'https' } : {}),
  });
  const cryptoProvider = Stripe.createSubtleCryptoProvider();
  const tierByPrice = new Map(Object.entries(options.prices).flatMap(([tier, price]) => (price ? [[price, tier as TierId] as const] : [])));
  const tierOf = (price: string | null) => (price ? (tierByPrice.get(price) ?? null) : null);
  const meterEventName = options.meterEventName ?? 'catalogue_overage_calls';

  return {
    async verifyWebhook(payload: Uint8Array, signatureHeader: string): Promise<BillingEvent | null> {
      let event: StripeEventLike;
      try {
        // The raw bytes as received: any re-encoding would break the signature.
        event = (await stripe.webhooks.constructEventAsync(
          payload,
          signatureHeader,
          options.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          cryptoProvider,
        )) as unknown as StripeEventLike;
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) return null;
        // A signed body that is not an event (bad JSON) is refused the same way.
        if (error instanceof SyntaxError) return null;
        throw error;
      }
      return normalizeEvent(event, tierOf);
    },

    async createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }> {
      const price = options.prices[request.tier];
      if (!price) throw new Error(`no Stripe price configured for ${request.tier}`);
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price, quantity: 1 }],
        customer_email: request.email,
        metadata: { tier: request.tier },
        subscription_data: { metadata: { tier: request.tier } },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { id: session.id, url: session.url };
    },

    async getCheckout(sessionId: string): Promise<CheckoutSessionInfo | null> {
      try {
        const s = await stripe.checkout.sessions.retrieve(sessionId);
        return {
          id: s.id,
          status: s.status ?? 'open',
          paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
          email: s.customer_details?.email ?? s.customer_email ?? null,
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },

    async reportOverage(report: OverageReport): Promise<void> {
      await stripe.billing.meterEvents.create(
        {
          event_name: meterEventName,
          identifier: report.identifier,
          timestamp: Math.floor(report.timestamp.getTime() / 1000),
          payload: { stripe_customer_id: report.stripeCustomerId, value: String(report.value) },
        },
        // The same identifier twice is one meter event for Stripe; the idempotency key also
        // makes the client's own retries safe.
        { idempotencyKey: report.identifier },
      );
    },
  };
}
