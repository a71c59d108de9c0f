/**
 * The Accounts port, by concern (issue 38 step 3): customers and keys, durable usage, billing
 * state, the dashboard's state, the mail outbox, the usage jobs' state and search events, one
 * interface each; `Accounts` is all of them. Each adapter implements one file per slice
 * (packages/postgres/src/accounts/, packages/core/src/memory/accounts/).
 */
import type { CallOptions } from './runtime.js';

/** The tiers of docs/decisions.md §2; their limits are in tiers.ts. */
export type TierId = 'self_serve_49' | 'self_serve_99' | 'self_serve_299' | 'contract_2000';

export type Environment = 'live' | 'test';

export type CustomerStatus = 'active' | 'past_due' | 'suspended' | 'canceled';
export type KeyStatus = 'active' | 'rotated' | 'revoked' | 'suspended';
export type OverageMode = 'block' | 'bill';

/** Negotiated contract overrides; the gate and its headers use them. */
export interface LimitOverrides {
  quota_per_month?: number;
  burst_per_minute?: number;
  concurrency?: number;
  batch_max?: number;
}

export interface Customer {
  id: string;
  email: string;
  name: string | null;
  tier: TierId;
  status: CustomerStatus;
  overage: OverageMode;
  limits: LimitOverrides | null;
  /** Start of the 7-day grace window after `invoice.payment_failed`; null when none runs. */
  past_due_since: Date | null;
  created_at: Date;
  /** Stripe's `cus_…` id for self-serve customers (overage meter events); absent for admin-issued ones. */
  stripe_customer_id?: string | null;
}

export interface ApiKey {
  id: string;
  customer_id: string;
  /** Hex SHA-256 of the plaintext key; the plaintext is never stored. */
  hash: string;
  display_prefix: string;
  environment: Environment;
  status: KeyStatus;
  created_at: Date;
}

export interface KeyWithCustomer {
  key: ApiKey;
  customer: Customer;
}

export interface NewCustomer {
  id: string;
  email: string;
  name: string | null;
  tier: TierId;
  overage?: OverageMode;
  limits?: LimitOverrides | null;
  created_at: Date;
}

export interface NewKey {
  id: string;
  hash: string;
  display_prefix: string;
  environment: Environment;
  created_at: Date;
}

/**
 * Customers and their keys: the gate's lookups (by hash for a call, by id for a beacon), issuing
 * keys (admin, signup, dashboard) and their lifecycle. Key changes the gate reads move the
 * accounts epoch on (gate/auth-invalidation.ts).
 */
export interface CustomersAndKeys {
  /** The key and its customer in one read; the gate's only store call. */
  findKeyByHash(hash: string, lifetime?: CallOptions): Promise<KeyWithCustomer | null>;
  /** The key with this id and its customer (a beacon token names its key by id); null when none. */
  findKeyById(keyId: string, lifetime?: CallOptions): Promise<KeyWithCustomer | null>;
  /** Creates the customer and its first key atomically. */
  createCustomerWithKey(customer: NewCustomer, key: NewKey): Promise<KeyWithCustomer>;
  /** Adds a key to an existing customer. */
  addKey(customerId: string, key: NewKey): Promise<ApiKey>;
  /**
   * A new active key for the customer (the dashboard's "create key"), unless the customer
   * already has `maxActive` active keys: then null and nothing changes. The count and the insert
   * are one step, so two concurrent creates cannot pass the cap together.
   */
  addKeyCapped(customerId: string, key: NewKey, maxActive: number): Promise<ApiKey | null>;
  getCustomer(customerId: string): Promise<Customer | null>;
  listKeys(customerId: string): Promise<ApiKey[]>;
  /** Customers with this e-mail (compared case-insensitively), any status. */
  findCustomersByEmail(email: string): Promise<Customer[]>;
  /**
   * Atomically: the customer's key `keyId`, if active, becomes `rotated` and `newKey` is
   * inserted active. null (nothing changes) when the key is not the customer's or not active.
   */
  rotateKey(customerId: string, keyId: string, newKey: NewKey): Promise<{ old: ApiKey; key: ApiKey } | null>;
  /** The customer's key becomes `revoked` (from active or suspended; rotated/revoked stay). null when not the customer's. */
  revokeKey(customerId: string, keyId: string): Promise<ApiKey | null>;
}

/**
 * Durable usage: the month's calls per customer and environment, and per day, as the limiter
 * flushes them (its usage ledger) and the dashboard and overage read them.
 */
export interface DurableUsage {
  /**
   * Durable monthly usage, written by the limiter's flush job: adds `delta` to the stored count,
   * and to the count of the day it is written (`at`, default the store's clock; a flush after
   * the month ended counts on its last day). The days are what the dashboard's daily chart shows.
   */
  addUsage(customerId: string, environment: Environment, month: string, delta: number, at?: Date): Promise<void>;
  /** Durable monthly usage as last flushed. */
  getUsage(customerId: string, environment: Environment, month: string): Promise<number>;
  /** The month's durable usage per UTC day (`YYYY-MM-DD`), days with calls only, oldest first. */
  getDailyUsage(customerId: string, environment: Environment, month: string): Promise<Array<{ day: string; count: number }>>;
  /**
   * A flush of a shared month counter's range (from, upto] of one counter generation
   * (issue 27; @catalogue/upstash's usage-flush.ts): adds what of it is not durable yet, i.e.
   * `upto - max(from, what this generation already flushed)` less the calls of that range made
   * durable one by one (addUsageDirect), to the month and to the day of `at`, atomically; a flush
   * repeated by any instance adds nothing twice. Answers the calls it added.
   */
  flushUsage(flush: UsageFlush): Promise<number>;
  /** How far a counter generation's calls are durable (its last flush's `upto`), or null before its first flush. */
  getUsageFlushed(customerId: string, environment: Environment, month: string, generation: string): Promise<number | null>;
  /**
   * Calls of a shared counter made durable one by one, by their places in it, when the counter
   * cannot be flushed (an instance stopping while Redis is down): adds those the generation's
   * flushes have not covered yet, and later flushes of ranges holding them skip them. Answers
   * the calls it added.
   */
  addUsageDirect(direct: UsageDirect): Promise<number>;
}

/**
 * A customer's billing state: Stripe's events applied once each, the checkout that made the
 * customer, the overage mode and the grace after a failed payment. Each method is atomic on its
 * own (one transaction).
 */
export interface BillingState {
  /**
   * Checkout completion, all or nothing in one transaction: records `eventId`, creates the
   * customer (status active, stripe ids, last billing event time = eventCreated) with its first
   * key, the sealed reveal row and the sealed outbox row. Refuses without effect when the event
   * id was already recorded (`duplicate_event`) or a customer already exists for the checkout
   * session (`duplicate_session`, the event id is then recorded).
   */
  completeCheckout(input: CheckoutCompletion): Promise<CheckoutOutcome>;
  /**
   * A billing state change, in one transaction with the record of `eventId`. `duplicate_event`:
   * the id was already recorded, nothing changes. `unknown_customer`: no customer has
   * `stripeCustomerId`; nothing is recorded. `stale`: the customer's last applied billing event
   * is newer than `eventCreated`; the id is recorded, nothing else changes. Otherwise
   * (`applied`): status past_due sets past_due_since to eventCreated unless a grace window
   * already runs; status active clears past_due_since and turns the customer's suspended keys
   * active; status canceled just sets it; `tier` is set when given; last billing event time
   * becomes eventCreated.
   */
  applyBillingChange(input: BillingChange): Promise<BillingChangeOutcome>;
  findCustomerByCheckoutSession(checkoutSessionId: string): Promise<Customer | null>;
  setOverage(customerId: string, overage: OverageMode): Promise<Customer | null>;
  /** Marks keys of customers whose grace window ended before `now` as suspended; returns how many. */
  suspendExpiredGrace(now: Date, graceMs: number): Promise<number>;
}

/**
 * The dashboard's stored state: one-time key reveals, single-use sign-in tokens and sessions
 * (hashes only), and their expiry.
 */
export interface DashboardState {
  /** One-time reveal: deletes and returns the customer's unexpired reveal rows (newest first). */
  takeReveals(customerId: string, now: Date): Promise<RevealRow[]>;
  createLoginToken(token: LoginToken): Promise<void>;
  /** Single use: deletes the token row and returns its customer id when it exists and has not expired. */
  consumeLoginToken(hash: string, now: Date): Promise<string | null>;
  createSession(session: DashboardSession): Promise<void>;
  /** The customer id of an unexpired session. */
  findSession(hash: string, now: Date): Promise<string | null>;
  deleteSession(hash: string): Promise<void>;
  /** Deletes expired reveal rows, login tokens and sessions. */
  purgeExpired(now: Date): Promise<void>;
}

/**
 * The mail outbox: sealed messages claimed by one worker at a time, retried with backoff until
 * sent or dead.
 */
export interface MailOutbox {
  /**
   * Claims due outbox rows (not sent, not dead, next_attempt_at <= now; only `id` when given)
   * by moving their next_attempt_at to `leaseUntil`, so two workers never hold the same row
   * (PostgreSQL: FOR UPDATE SKIP LOCKED). Oldest first, at most `limit`.
   */
  claimOutbox(now: Date, leaseUntil: Date, limit: number, id?: string): Promise<OutboxMessage[]>;
  /** Marks the row sent and wipes its sealed body. */
  markOutboxSent(id: string, now: Date): Promise<void>;
  /** Counts a failed attempt; `nextAttemptAt` null marks the row dead and wipes its sealed body. */
  markOutboxFailed(id: string, nextAttemptAt: Date | null, error: string): Promise<void>;
}

/**
 * What the usage jobs keep: the customers they review, the overage reported per month (claimed
 * before it is sent) and the once-a-month contract review.
 */
export interface UsageJobs {
  /**
   * Customers the usage jobs look at: status other than canceled, and overage `bill` or a
   * contract tier (TIERS[tier].contract).
   */
  listCustomersForUsageReview(): Promise<Customer[]>;
  /** Overage already reported for the month (`reported`) and a report begun but not confirmed (`pending`). */
  getOverageCursor(customerId: string, month: string): Promise<OverageCursor>;
  /**
   * Claims the report of calls from `from` up to `through` (the meter event identifier derives
   * from `through`): true only while the cursor still says reported = `from` with nothing
   * pending. Two instances that read the same cursor cannot both report the same calls under
   * different identifiers (docs/decisions.md §4, "Overage across a fleet"); the one that loses reports nothing.
   */
  setOveragePending(customerId: string, month: string, through: number, from: number): Promise<boolean>;
  /** reported = max(reported, through), and pending = null unless a later report is pending: a late confirmation never moves the cursor back. */
  commitOverage(customerId: string, month: string, through: number): Promise<void>;
  /** Insert-if-absent of (customer, month); true only for the call that inserted. */
  claimContractReview(customerId: string, month: string): Promise<boolean>;
}

/** Search-event beacons, stored once their token is verified. */
export interface SearchEvents {
  /** Stores one search-event beacon (already authenticated by its per-search token). */
  recordSearchEvent(event: SearchEvent): Promise<void>;
}

/**
 * The whole Accounts port: every slice, for the wiring only (createService, the adapters'
 * constructors, host-kit's storage). A consumer names the slices it uses instead
 * (`Ports<DashboardState & CustomersAndKeys>`, a route's `WithAccounts<…>`): docs/architecture.md, "Ports".
 */
export type Accounts = CustomersAndKeys & DurableUsage & BillingState & DashboardState & MailOutbox & UsageJobs & SearchEvents;

/** One range of a shared month counter made durable (Accounts.flushUsage). */
export interface UsageFlush {
  customerId: string;
  environment: Environment;
  month: string;
  /** The counter's generation: a new one each time the counter is seeded afresh. */
  generation: string;
  /** The counter's value that was durable already when this range was claimed. */
  from: number;
  /** The counter's value this flush makes durable. */
  upto: number;
  /** When the calls are written (their day; default the store's clock). */
  at?: Date;
}

/** Calls of one counter generation made durable by their places in it (Accounts.addUsageDirect). */
export interface UsageDirect {
  customerId: string;
  environment: Environment;
  month: string;
  generation: string;
  /** The counter's value right after each call. */
  positions: number[];
  at?: Date;
}

export interface CheckoutCompletion {
  eventId: string;
  eventCreated: Date;
  checkoutSessionId: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  customer: NewCustomer;
  key: NewKey;
  /** The plaintext key sealed with AES-GCM (SECRET_KEY). */
  reveal: { sealed: string; expires_at: Date };
  mail: { id: string; to: string; sealed: string; created_at: Date };
}

export type CheckoutOutcome = { outcome: 'applied'; customer: Customer; key: ApiKey; mailId: string } | { outcome: 'duplicate_event' | 'duplicate_session' };

export interface BillingChange {
  eventId: string;
  eventCreated: Date;
  stripeCustomerId: string;
  status?: 'active' | 'past_due' | 'canceled';
  tier?: TierId;
}

export type BillingChangeOutcome = 'applied' | 'duplicate_event' | 'stale' | 'unknown_customer';

export interface RevealRow {
  customer_id: string;
  key_id: string;
  sealed: string;
  expires_at: Date;
}

export interface LoginToken {
  hash: string;
  customer_id: string;
  expires_at: Date;
}

export interface DashboardSession {
  hash: string;
  customer_id: string;
  created_at: Date;
  expires_at: Date;
}

export interface OutboxMessage {
  id: string;
  customer_id: string;
  to: string;
  /** Sealed JSON {subject, text, html?}; empty once sent or dead. */
  sealed: string;
  attempts: number;
  next_attempt_at: Date;
  created_at: Date;
  sent_at: Date | null;
}

export interface OverageCursor {
  reported: number;
  pending: number | null;
}

/**
 * A search-event beacon: `observed` (which hits the user saw, at which positions) or `refined`
 * (the next query the user typed). search_id and key_id come from the verified beacon token.
 */
export type SearchEvent =
  | { kind: 'observed'; search_id: string; key_id: string; received_at: Date; hits: Array<{ id: number; position: number }> }
  | { kind: 'refined'; search_id: string; key_id: string; received_at: Date; q: string };
