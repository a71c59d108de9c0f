/**
 * Stripe events → the service's BillingEvent. Reads only the fields the service acts on and
 * tolerates both shapes of the API versions in use: since basil an invoice names its
 * subscription under `parent.subscription_details` and a line's price under
 * `pricing.price_details`.
 */
import type { BillingEvent, TierId } from '@catalogue/core';
import { isTierId } from '@catalogue/core';

type Obj = Record<string, unknown>;

const obj = (value: unknown): Obj | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : null);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
/** An expandable reference: the id string, or the expanded object's id. */
const ref = (value: unknown): string | null => str(value) ?? str(obj(value)?.id);

export interface StripeEventLike {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: { object: unknown };
}

/** Price id → tier, from the STRIPE_PRICE_* configuration. */
export type TierByPrice = (priceId: string | null) => TierId | null;

function linePriceIds(invoice: Obj): string[] {
  const lines = obj(invoice.lines)?.data;
  if (!Array.isArray(lines)) return [];
  return lines.flatMap((line) => {
    const l = obj(line);
    const basil = str(obj(obj(l?.pricing)?.price_details)?.price);
    const legacy = ref(l?.price);
    return [basil ?? legacy].filter((p): p is string => p !== null);
  });
}

function subscriptionPriceIds(subscription: Obj): string[] {
  const items = obj(subscription.items)?.data;
  if (!Array.isArray(items)) return [];
  return items.map((item) => ref(obj(item)?.price)).filter((p): p is string => p !== null);
}

const firstTier = (ids: string[], tierOf: TierByPrice): TierId | null => ids.map(tierOf).find((t) => t !== null) ?? null;

function subscriptionStatus(status: unknown): 'active' | 'past_due' | 'canceled' | null {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return null;
  }
}

export function normalizeEvent(event: StripeEventLike, tierOf: TierByPrice): BillingEvent {
  const base = { id: event.id, created: new Date(event.created * 1000), livemode: event.livemode };
  const o = obj(event.data.object) ?? {};
  const customer = ref(o.customer);
  const ignored = (): BillingEvent => ({ ...base, type: 'ignored', stripeType: event.type });

  switch (event.type) {
    case 'checkout.session.completed': {
      const metaTier = obj(o.metadata)?.tier;
      return {
        ...base,
        type: 'checkout_completed',
        checkoutSessionId: str(o.id) ?? '',
        stripeCustomerId: customer,
        subscriptionId: ref(o.subscription),
        email: str(obj(o.customer_details)?.email) ?? str(o.customer_email),
        tier: isTierId(metaTier) ? metaTier : null,
        paid: o.payment_status === 'paid' || o.payment_status === 'no_payment_required',
      };
    }
    case 'invoice.payment_failed':
      return customer ? { ...base, type: 'payment_failed', stripeCustomerId: customer } : ignored();
    case 'invoice.payment_succeeded':
    case 'invoice.paid':
      return customer ? { ...base, type: 'payment_succeeded', stripeCustomerId: customer, tier: firstTier(linePriceIds(o), tierOf) } : ignored();
    case 'customer.subscription.updated':
      return customer
        ? {
            ...base,
            type: 'subscription_updated',
            stripeCustomerId: customer,
            tier: firstTier(subscriptionPriceIds(o), tierOf),
            status: subscriptionStatus(o.status),
          }
        : ignored();
    case 'customer.subscription.deleted':
      return customer ? { ...base, type: 'subscription_deleted', stripeCustomerId: customer } : ignored();
    default:
      return ignored();
  }
}
