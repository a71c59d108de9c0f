/**
 * A customer's billing state (the BillingState slice of Accounts): the checkout that made the
 * customer, the overage mode, the grace after a failed payment, and Stripe webhook effects,
 * each in one transaction with the record of its event id, so a
 * redelivered or concurrently delivered event takes effect exactly once. The event id's
 * primary key is the arbiter: a second transaction inserting the same id waits for the first
 * and then sees the conflict.
 */
import type { BillingChange, BillingState, CheckoutCompletion, CheckoutOutcome, Customer } from '@catalogue/core';
import type { Sql } from 'postgres';
import type { QueryGuard } from '../backstops.js';
import { insertCustomer, insertKey } from './customers-and-keys.js';
import { type CustomerRow, customerOf, type KeyRow, keyOf, type Queryable } from './rows.js';

/** Records the event id; false when it was already recorded (by now or by a transaction that committed meanwhile). */
async function recordEvent(tx: Queryable, eventId: string): Promise<boolean> {
  const rows = await tx`INSERT INTO billing_events (id) VALUES (${eventId}) ON CONFLICT (id) DO NOTHING RETURNING id`;
  return rows.length === 1;
}

/** The customer state after a billing change, computed exactly as the memory reference does. */
function changed(customer: Customer, change: BillingChange): Pick<Customer, 'tier' | 'status' | 'past_due_since'> {
  const next = { tier: change.tier ?? customer.tier, status: customer.status, past_due_since: customer.past_due_since };
  if (change.status === 'past_due') {
    next.status = 'past_due';
    // A grace window already running keeps its start.
    next.past_due_since = customer.past_due_since ?? change.eventCreated;
  } else if (change.status === 'active') {
    next.status = 'active';
    next.past_due_since = null;
  } else if (change.status === 'canceled') {
    next.status = 'canceled';
  }
  return next;
}

export function billingState(sql: Sql, guard: QueryGuard): BillingState {
  return {
    async completeCheckout(input: CheckoutCompletion): Promise<CheckoutOutcome> {
      return guard.run(undefined, () =>
        sql.begin(async (tx): Promise<CheckoutOutcome> => {
          if (!(await recordEvent(tx, input.eventId))) return { outcome: 'duplicate_event' };
          const [customerRow] = await insertCustomer(tx, input.customer, {
            stripeCustomerId: input.stripeCustomerId,
            stripeSubscriptionId: input.stripeSubscriptionId,
            checkoutSessionId: input.checkoutSessionId,
            lastBillingEventAt: input.eventCreated,
          });
          // No row: a customer exists for this session; the event id stays recorded.
          if (!customerRow) return { outcome: 'duplicate_session' };
          const customer = customerOf(customerRow);
          const [keyRow] = await insertKey(tx, customer.id, input.key);
          const key = keyOf(keyRow as KeyRow);
          await tx`
            INSERT INTO reveals (key_id, customer_id, sealed, expires_at)
            VALUES (${key.id}, ${customer.id}, ${input.reveal.sealed}, ${input.reveal.expires_at})`;
          await tx`
            INSERT INTO outbox (id, customer_id, recipient, sealed, attempts, next_attempt_at, created_at)
            VALUES (${input.mail.id}, ${customer.id}, ${input.mail.to}, ${input.mail.sealed}, 0, ${input.mail.created_at}, ${input.mail.created_at})`;
          return { outcome: 'applied', customer, key, mailId: input.mail.id };
        }),
      );
    },

    async applyBillingChange(change) {
      return guard.run(undefined, () =>
        sql.begin(async (tx) => {
          // Checked before the customer so a duplicate answers duplicate_event even when unknown.
          const seen = await tx`SELECT 1 FROM billing_events WHERE id = ${change.eventId}`;
          if (seen.length > 0) return 'duplicate_event' as const;
          // The row lock orders concurrent changes of one customer; the oldest customer with
          // the Stripe id is the one changed, as in the memory implementation.
          const [row] = await tx<CustomerRow[]>`
            SELECT * FROM customers WHERE stripe_customer_id = ${change.stripeCustomerId}
            ORDER BY created_at, id LIMIT 1 FOR UPDATE`;
          // Nothing recorded: the event may be retried once the customer exists.
          if (!row) return 'unknown_customer' as const;
          if (!(await recordEvent(tx, change.eventId))) return 'duplicate_event' as const;
          if (row.last_billing_event_at && row.last_billing_event_at.getTime() > change.eventCreated.getTime()) return 'stale' as const;
          const next = changed(customerOf(row), change);
          await tx`
            UPDATE customers SET tier = ${next.tier}, status = ${next.status}, past_due_since = ${next.past_due_since},
                                 last_billing_event_at = ${change.eventCreated}
            WHERE id = ${row.id}`;
          if (change.status === 'active') {
            await tx`UPDATE api_keys SET status = 'active' WHERE customer_id = ${row.id} AND status = 'suspended'`;
          }
          return 'applied' as const;
        }),
      );
    },

    async findCustomerByCheckoutSession(checkoutSessionId) {
      const rows = await guard.query(undefined, () => sql<CustomerRow[]>`SELECT * FROM customers WHERE checkout_session_id = ${checkoutSessionId}`);
      return rows[0] ? customerOf(rows[0]) : null;
    },

    async setOverage(customerId, overage) {
      const rows = await guard.query(
        undefined,
        () => sql<CustomerRow[]>`
        UPDATE customers SET overage = ${overage} WHERE id = ${customerId} RETURNING *`,
      );
      return rows[0] ? customerOf(rows[0]) : null;
    },

    async suspendExpiredGrace(now, graceMs) {
      const cutoff = new Date(now.getTime() - graceMs);
      const rows = await guard.query(
        undefined,
        () => sql`
        UPDATE api_keys k SET status = 'suspended'
        FROM customers c
        WHERE c.id = k.customer_id AND c.status = 'past_due' AND c.past_due_since IS NOT NULL
          AND c.past_due_since <= ${cutoff} AND k.status = 'active'
        RETURNING k.id`,
      );
      return rows.length;
    },
  };
}
