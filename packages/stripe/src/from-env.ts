/** The Billing port from the environment; undefined when STRIPE_SECRET_KEY is not set (signup answers 503). */
import type { Billing } from '@catalogue/core';
import { createStripeBilling } from './stripe-billing.js';

export function stripeBillingFromEnv(env: Record<string, string | undefined>): Billing | undefined {
  const apiKey = env.STRIPE_SECRET_KEY;
  if (!apiKey) return undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY');
  return createStripeBilling({
    apiKey,
    webhookSecret,
    prices: { self_serve_49: env.STRIPE_PRICE_SELF_SERVE_49, self_serve_99: env.STRIPE_PRICE_SELF_SERVE_99, self_serve_299: env.STRIPE_PRICE_SELF_SERVE_299 },
    meterEventName: env.STRIPE_METER_EVENT,
    apiBase: env.STRIPE_API_BASE ?? null,
  });
}
