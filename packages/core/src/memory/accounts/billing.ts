/** A customer's billing state in memory (the BillingState slice; PostgreSQL's is accounts/billing.ts). */
import type { BillingState } from '../../ports/index.js';
import { insertCustomer, storeKey } from './customers-and-keys.js';
import type { AccountTables } from './tables.js';

export function billingState(tables: AccountTables): BillingState {
  const { customers, keys, keyIdByHash, billing, billingEvents } = tables;
  const customerByStripeId = (stripeCustomerId: string) => [...customers.values()].find((c) => c.stripe_customer_id === stripeCustomerId);
  return {
    async completeCheckout(input) {
      if (billingEvents.has(input.eventId)) return { outcome: 'duplicate_event' };
      const existing = [...billing.values()].some((b) => b.checkoutSessionId === input.checkoutSessionId);
      if (existing) {
        billingEvents.add(input.eventId);
        return { outcome: 'duplicate_session' };
      }
      if (keyIdByHash.has(input.key.hash) || customers.has(input.customer.id)) throw new Error('duplicate customer or key');
      const customer = insertCustomer(tables, input.customer, input.stripeCustomerId);
      const key = storeKey(tables, customer.id, input.key);
      billing.set(customer.id, {
        checkoutSessionId: input.checkoutSessionId,
        stripeSubscriptionId: input.stripeSubscriptionId,
        lastBillingEventAt: input.eventCreated,
      });
      tables.reveals.set(key.id, { customer_id: customer.id, key_id: key.id, sealed: input.reveal.sealed, expires_at: input.reveal.expires_at });
      tables.outbox.set(input.mail.id, {
        id: input.mail.id,
        customer_id: customer.id,
        to: input.mail.to,
        sealed: input.mail.sealed,
        attempts: 0,
        next_attempt_at: input.mail.created_at,
        created_at: input.mail.created_at,
        sent_at: null,
        dead: false,
        last_error: null,
      });
      billingEvents.add(input.eventId);
      return { outcome: 'applied', customer: { ...customer }, key: { ...key }, mailId: input.mail.id };
    },
    async applyBillingChange(change) {
      if (billingEvents.has(change.eventId)) return 'duplicate_event';
      const customer = customerByStripeId(change.stripeCustomerId);
      if (!customer) return 'unknown_customer';
      billingEvents.add(change.eventId);
      const meta = billing.get(customer.id) ?? { checkoutSessionId: null, stripeSubscriptionId: null, lastBillingEventAt: null };
      if (meta.lastBillingEventAt && meta.lastBillingEventAt.getTime() > change.eventCreated.getTime()) return 'stale';
      billing.set(customer.id, { ...meta, lastBillingEventAt: change.eventCreated });
      if (change.tier) customer.tier = change.tier;
      if (change.status === 'past_due') {
        customer.status = 'past_due';
        customer.past_due_since ??= change.eventCreated;
      } else if (change.status === 'active') {
        customer.status = 'active';
        customer.past_due_since = null;
        for (const key of keys.values()) if (key.customer_id === customer.id && key.status === 'suspended') key.status = 'active';
      } else if (change.status === 'canceled') {
        customer.status = 'canceled';
      }
      return 'applied';
    },
    async findCustomerByCheckoutSession(checkoutSessionId) {
      for (const [customerId, meta] of billing) {
        if (meta.checkoutSessionId === checkoutSessionId) {
          const c = customers.get(customerId);
          return c ? { ...c } : null;
        }
      }
      return null;
    },
    async setOverage(customerId, mode) {
      const c = customers.get(customerId);
      if (!c) return null;
      c.overage = mode;
      return { ...c };
    },
    async suspendExpiredGrace(now, graceMs) {
      let count = 0;
      for (const customer of customers.values()) {
        if (customer.status !== 'past_due' || !customer.past_due_since) continue;
        if (now.getTime() - customer.past_due_since.getTime() < graceMs) continue;
        for (const key of keys.values()) {
          if (key.customer_id === customer.id && key.status === 'active') {
            key.status = 'suspended';
            count++;
          }
        }
      }
      return count;
    },
  };
}
