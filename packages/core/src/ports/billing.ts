/** The Billing port (Stripe) and the Mailer port. */
import type { TierId } from './accounts.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A verified Stripe event reduced to what the service acts on. */
export type BillingEvent = { id: string; created: Date; livemode: boolean } & (
  | {
      type: 'checkout_completed';
      checkoutSessionId: string;
      stripeCustomerId: string | null;
      subscriptionId: string | null;
      email: string | null;
      /** From metadata.tier; null when absent or unknown. */
      tier: TierId | null;
      /** paid or no payment required: only then is a key issued. */
      paid: boolean;
    }
  | { type: 'payment_failed'; stripeCustomerId: string }
  | { type: 'payment_succeeded'; stripeCustomerId: string; tier: TierId | null }
  | { type: 'subscription_updated'; stripeCustomerId: string; tier: TierId | null; status: 'active' | 'past_due' | 'canceled' | null }
  | { type: 'subscription_deleted'; stripeCustomerId: string }
  | { type: 'ignored'; stripeType: string }
);

export interface CheckoutRequest {
  tier: TierId;
  email: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSessionInfo {
  id: string;
  /** Stripe's status: open, complete or expired. */
  status: string;
  paid: boolean;
  email: string | null;
}

export interface OverageReport {
  stripeCustomerId: string;
  /** Calls past the quota covered by this report. */
  value: number;
  /** Idempotent identifier: the same report sent twice is counted once. */
  identifier: string;
  timestamp: Date;
}

export interface Billing {
  /** Verifies the signature (tolerance 300 s) and normalizes the event; null when the signature is bad. */
  verifyWebhook(payload: Uint8Array, signatureHeader: string): Promise<BillingEvent | null>;
  createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  getCheckout(sessionId: string): Promise<CheckoutSessionInfo | null>;
  reportOverage(report: OverageReport): Promise<void>;
}
