/**
 * Accounts in process memory: for the conformance suite, embedding and users' tests.
 * Each method does all its reads and writes without an `await` in between, which makes it
 * atomic the way one PostgreSQL transaction is.
 */

import type {
  Accounts,
  ApiKey,
  Customer,
  DashboardSession,
  Environment,
  KeyWithCustomer,
  LoginToken,
  NewCustomer,
  NewKey,
  OutboxMessage,
  OverageCursor,
  RevealRow,
  SearchEvent,
} from '../ports/index.js';
import { TIERS, usageDay } from '../tiers.js';

/** What the memory store keeps beside the customer record itself. */
interface CustomerBilling {
  checkoutSessionId: string | null;
  stripeSubscriptionId: string | null;
  lastBillingEventAt: Date | null;
}

interface OutboxRow extends OutboxMessage {
  dead: boolean;
  last_error: string | null;
}

export interface MemoryAccounts extends Accounts {
  /** Direct access for tests and seeding. */
  readonly customers: Map<string, Customer>;
  readonly keys: Map<string, ApiKey>;
  /** Search-event beacons in arrival order. */
  readonly searchEvents: SearchEvent[];
  /** Every table of the store by name, for tests that scan the stored data (e.g. for leaked secrets). */
  tables(): Record<string, unknown[]>;
}

/** `now`: the clock a usage write without `at` counts its day by (createTestService passes its own). */
export function createMemoryAccounts(options: { now?: () => number } = {}): MemoryAccounts {
  const clock = options.now ?? Date.now;
  const usageDays = new Map<string, Map<string, number>>();
  const customers = new Map<string, Customer>();
  const keys = new Map<string, ApiKey>();
  const keyIdByHash = new Map<string, string>();
  const usage = new Map<string, number>();
  /** How far each month counter generation is durable (Accounts.flushUsage). */
  const usageFlushes = new Map<string, number>();
  /** Calls made durable one by one, by their places in their counter generation (Accounts.addUsageDirect). */
  const usageDirect = new Map<string, Set<number>>();
  const billing = new Map<string, CustomerBilling>();
  const billingEvents = new Set<string>();
  const reveals = new Map<string, RevealRow>();
  const loginTokens = new Map<string, LoginToken>();
  const sessions = new Map<string, DashboardSession>();
  const outbox = new Map<string, OutboxRow>();
  const overage = new Map<string, OverageCursor>();
  const contractReviews = new Set<string>();
  const searchEvents: SearchEvent[] = [];

  const usageKey = (customerId: string, environment: Environment, month: string) => `${customerId}:${environment}:${month}`;
  function addUsage(customerId: string, environment: Environment, month: string, delta: number, at?: Date): void {
    const k = usageKey(customerId, environment, month);
    usage.set(k, (usage.get(k) ?? 0) + delta);
    const days = usageDays.get(k) ?? new Map<string, number>();
    const day = usageDay(month, at?.getTime() ?? clock());
    days.set(day, (days.get(day) ?? 0) + delta);
    usageDays.set(k, days);
  }

  function storeKey(customerId: string, key: NewKey): ApiKey {
    if (keyIdByHash.has(key.hash)) throw new Error('duplicate key hash');
    const stored: ApiKey = { ...key, customer_id: customerId, status: 'active' };
    keys.set(stored.id, stored);
    keyIdByHash.set(stored.hash, stored.id);
    return stored;
  }

  function insertCustomer(input: NewCustomer, stripeCustomerId: string | null = null): Customer {
    if (customers.has(input.id)) throw new Error('duplicate customer id');
    const customer: Customer = {
      id: input.id,
      email: input.email,
      name: input.name,
      tier: input.tier,
      status: 'active',
      overage: input.overage ?? 'block',
      limits: input.limits ?? null,
      past_due_since: null,
      created_at: input.created_at,
      stripe_customer_id: stripeCustomerId,
    };
    customers.set(customer.id, customer);
    return customer;
  }

  const customerByStripeId = (stripeCustomerId: string) => [...customers.values()].find((c) => c.stripe_customer_id === stripeCustomerId);
  const monthKey = (customerId: string, month: string) => `${customerId}:${month}`;

  return {
    customers,
    keys,
    searchEvents,
    tables: () => ({
      customers: [...customers.values()],
      keys: [...keys.values()],
      usage: [...usage.entries()],
      customer_billing: [...billing.entries()],
      billing_events: [...billingEvents],
      reveals: [...reveals.values()],
      login_tokens: [...loginTokens.values()],
      sessions: [...sessions.values()],
      outbox: [...outbox.values()],
      overage: [...overage.entries()],
      contract_reviews: [...contractReviews],
    }),
    async findKeyByHash(hash) {
      const id = keyIdByHash.get(hash);
      const key = id === undefined ? undefined : keys.get(id);
      const customer = key && customers.get(key.customer_id);
      // Copies, so a caller can never mutate the store through a returned record.
      return key && customer ? { key: { ...key }, customer: { ...customer } } : null;
    },
    async findKeyById(keyId) {
      const key = keys.get(keyId);
      const customer = key && customers.get(key.customer_id);
      return key && customer ? { key: { ...key }, customer: { ...customer } } : null;
    },
    async createCustomerWithKey(input: NewCustomer, key: NewKey): Promise<KeyWithCustomer> {
      if (keyIdByHash.has(key.hash)) throw new Error('duplicate key hash');
      const customer = insertCustomer(input);
      return { customer: { ...customer }, key: { ...storeKey(customer.id, key) } };
    },
    async addKey(customerId, key) {
      if (!customers.has(customerId)) throw new Error(`no customer ${customerId}`);
      return { ...storeKey(customerId, key) };
    },
    async addKeyCapped(customerId, key, maxActive) {
      if (!customers.has(customerId)) throw new Error(`no customer ${customerId}`);
      const active = [...keys.values()].filter((k) => k.customer_id === customerId && k.status === 'active').length;
      return active >= maxActive ? null : { ...storeKey(customerId, key) };
    },
    async getCustomer(customerId) {
      const c = customers.get(customerId);
      return c ? { ...c } : null;
    },
    async listKeys(customerId) {
      return [...keys.values()].filter((k) => k.customer_id === customerId).map((k) => ({ ...k }));
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
    async addUsage(customerId, environment, month, delta, at) {
      addUsage(customerId, environment, month, delta, at);
    },
    async getUsage(customerId, environment, month) {
      return usage.get(usageKey(customerId, environment, month)) ?? 0;
    },
    async flushUsage(flush) {
      const mark = `${usageKey(flush.customerId, flush.environment, flush.month)}\u0000${flush.generation}`;
      const start = Math.max(flush.from, usageFlushes.get(mark) ?? 0);
      if (flush.upto <= start) return 0;
      usageFlushes.set(mark, flush.upto);
      let direct = 0;
      for (const position of usageDirect.get(mark) ?? []) if (position > start && position <= flush.upto) direct++;
      const delta = flush.upto - start - direct;
      if (delta > 0) addUsage(flush.customerId, flush.environment, flush.month, delta, flush.at);
      return Math.max(0, delta);
    },
    async getUsageFlushed(customerId, environment, month, generation) {
      return usageFlushes.get(`${usageKey(customerId, environment, month)}\u0000${generation}`) ?? null;
    },
    async addUsageDirect(direct) {
      const mark = `${usageKey(direct.customerId, direct.environment, direct.month)}\u0000${direct.generation}`;
      const flushed = usageFlushes.get(mark) ?? 0;
      const known = usageDirect.get(mark) ?? new Set<number>();
      usageDirect.set(mark, known);
      let added = 0;
      for (const position of direct.positions) {
        if (position <= flushed || known.has(position)) continue;
        known.add(position);
        added++;
      }
      if (added > 0) addUsage(direct.customerId, direct.environment, direct.month, added, direct.at);
      return added;
    },
    async getDailyUsage(customerId, environment, month) {
      const days = usageDays.get(usageKey(customerId, environment, month)) ?? new Map<string, number>();
      return [...days]
        .filter(([, count]) => count > 0)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([day, count]) => ({ day, count }));
    },
    async recordSearchEvent(event) {
      searchEvents.push(structuredClone(event));
    },

    async completeCheckout(input) {
      if (billingEvents.has(input.eventId)) return { outcome: 'duplicate_event' };
      const existing = [...billing.values()].some((b) => b.checkoutSessionId === input.checkoutSessionId);
      if (existing) {
        billingEvents.add(input.eventId);
        return { outcome: 'duplicate_session' };
      }
      if (keyIdByHash.has(input.key.hash) || customers.has(input.customer.id)) throw new Error('duplicate customer or key');
      const customer = insertCustomer(input.customer, input.stripeCustomerId);
      const key = storeKey(customer.id, input.key);
      billing.set(customer.id, {
        checkoutSessionId: input.checkoutSessionId,
        stripeSubscriptionId: input.stripeSubscriptionId,
        lastBillingEventAt: input.eventCreated,
      });
      reveals.set(key.id, { customer_id: customer.id, key_id: key.id, sealed: input.reveal.sealed, expires_at: input.reveal.expires_at });
      outbox.set(input.mail.id, {
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
    async findCustomersByEmail(email) {
      const wanted = email.toLowerCase();
      return [...customers.values()].filter((c) => c.email.toLowerCase() === wanted).map((c) => ({ ...c }));
    },
    async listCustomersForUsageReview() {
      return [...customers.values()].filter((c) => c.status !== 'canceled' && (c.overage === 'bill' || TIERS[c.tier].contract)).map((c) => ({ ...c }));
    },
    async setOverage(customerId, mode) {
      const c = customers.get(customerId);
      if (!c) return null;
      c.overage = mode;
      return { ...c };
    },
    async rotateKey(customerId, keyId, newKey) {
      const old = keys.get(keyId);
      if (!old || old.customer_id !== customerId || old.status !== 'active') return null;
      if (keyIdByHash.has(newKey.hash)) throw new Error('duplicate key hash');
      old.status = 'rotated';
      const key = storeKey(customerId, newKey);
      return { old: { ...old }, key: { ...key } };
    },
    async revokeKey(customerId, keyId) {
      const key = keys.get(keyId);
      if (!key || key.customer_id !== customerId) return null;
      if (key.status === 'active' || key.status === 'suspended') key.status = 'revoked';
      return { ...key };
    },
    async takeReveals(customerId, now) {
      const taken: RevealRow[] = [];
      for (const [id, row] of reveals) {
        if (row.customer_id !== customerId) continue;
        reveals.delete(id);
        if (row.expires_at.getTime() > now.getTime()) taken.push({ ...row });
      }
      return taken.reverse();
    },
    async createLoginToken(token) {
      loginTokens.set(token.hash, { ...token });
    },
    async consumeLoginToken(hash, now) {
      const token = loginTokens.get(hash);
      if (!token) return null;
      loginTokens.delete(hash);
      return token.expires_at.getTime() > now.getTime() ? token.customer_id : null;
    },
    async createSession(session) {
      sessions.set(session.hash, { ...session });
    },
    async findSession(hash, now) {
      const session = sessions.get(hash);
      return session && session.expires_at.getTime() > now.getTime() ? session.customer_id : null;
    },
    async deleteSession(hash) {
      sessions.delete(hash);
    },
    async claimOutbox(now, leaseUntil, limit, id) {
      const due = [...outbox.values()]
        .filter((m) => (id === undefined || m.id === id) && !m.sent_at && !m.dead && m.next_attempt_at.getTime() <= now.getTime())
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
        .slice(0, limit);
      for (const m of due) m.next_attempt_at = leaseUntil;
      return due.map(({ dead: _d, last_error: _e, ...m }) => ({ ...m }));
    },
    async markOutboxSent(id, now) {
      const m = outbox.get(id);
      if (!m) return;
      m.sent_at = now;
      m.sealed = '';
    },
    async markOutboxFailed(id, nextAttemptAt, error) {
      const m = outbox.get(id);
      if (!m) return;
      m.attempts++;
      m.last_error = error;
      if (nextAttemptAt) {
        m.next_attempt_at = nextAttemptAt;
      } else {
        m.dead = true;
        m.sealed = '';
      }
    },
    async getOverageCursor(customerId, month) {
      return { ...(overage.get(monthKey(customerId, month)) ?? { reported: 0, pending: null }) };
    },
    async setOveragePending(customerId, month, through, from) {
      const k = monthKey(customerId, month);
      const cursor = overage.get(k) ?? { reported: 0, pending: null };
      if (cursor.reported !== from || cursor.pending !== null) return false;
      overage.set(k, { reported: from, pending: through });
      return true;
    },
    async commitOverage(customerId, month, through) {
      const k = monthKey(customerId, month);
      const cursor = overage.get(k) ?? { reported: 0, pending: null };
      overage.set(k, { reported: Math.max(cursor.reported, through), pending: cursor.pending !== null && cursor.pending > through ? cursor.pending : null });
    },
    async claimContractReview(customerId, month) {
      const k = monthKey(customerId, month);
      if (contractReviews.has(k)) return false;
      contractReviews.add(k);
      return true;
    },
    async purgeExpired(now) {
      const t = now.getTime();
      for (const [id, r] of reveals) if (r.expires_at.getTime() <= t) reveals.delete(id);
      for (const [h, l] of loginTokens) if (l.expires_at.getTime() <= t) loginTokens.delete(h);
      for (const [h, s] of sessions) if (s.expires_at.getTime() <= t) sessions.delete(h);
    },
  };
}
