/**
 * The only doors out of core. Every port has an in-memory implementation in `memory/` and a
 * real one in an adapter package; the conformance suite runs the same assertions on both.
 * Nothing here may name a runtime.
 *
 * What core hands a port from a request has passed validation: every id is within its range
 * (catalogue/id-ranges.ts: at most 2³¹−1) and no text holds U+0000 or a lone surrogate
 * (validation/storable.ts), so an adapter binds them as they are (issue 11 §3).
 */
import type {
  AgentKind,
  ArtistDossier,
  BandcampSignals,
  Breakout,
  ClusterData,
  FacetValue,
  FestivalDossier,
  LabelDossier,
  MasterData,
  MasterDossierData,
  OneToWatch,
  SearchHitData,
  Tastemaker,
} from './schemas/records.js';
import type { TierId } from './tiers.js';

// ───────────────────────────── shared ─────────────────────────────

export type Environment = 'live' | 'test';

/** Passed to every port call that may take time, so a deadline or a disconnect can cancel it. */
export interface CallOptions {
  signal?: AbortSignal;
}

// ───────────────────────────── Catalogue ─────────────────────────────

export const FACET_NAMES = ['genre', 'style', 'format', 'country', 'year_from', 'year_to', 'label'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Facet filters narrow the master set. Multi-valued facets are OR within, AND across. */
export interface FacetFilters {
  genre?: string[];
  style?: string[];
  format?: string[];
  country?: string[];
  label?: string[];
  year_from?: number;
  year_to?: number;
}

export type SearchType = 'all' | 'master' | 'artist' | 'label' | 'festival';

/** Keyset position: hits are ordered by score desc, then type, then id asc. */
export interface SearchPosition {
  score: number;
  type: SearchHitData['type'];
  id: number;
}

export interface SearchQuery {
  q: string | null;
  type: SearchType;
  filters: FacetFilters;
  /** The catalogue returns up to `limit` hits strictly after `after`. */
  limit: number;
  after: SearchPosition | null;
}

export interface FacetsQuery {
  q: string | null;
  facets: FacetName[];
  filters: FacetFilters;
  /** Values per facet. */
  limit: number;
}

export interface FacetsResult {
  total: number;
  facets: Partial<Record<FacetName, FacetValue[]>>;
}

/** A path `{key}` after parsing: a cluster id, a slug, or a typed locator. */
export type AgentKey = { by: 'cluster_id'; cluster_id: number } | { by: 'slug'; slug: string } | { by: 'discogs'; id: number } | { by: 'mbid'; mbid: string };

export interface AgentIdentity {
  kind: AgentKind;
  cluster_id: number;
  slug: string;
  name: string;
}

/** A resolve question, already parsed by core (links are turned into typed locators). */
export type ResolveInput =
  | { by: 'q'; q: string }
  | { by: 'discogs'; kind: 'artist' | 'label' | 'master'; id: number }
  | { by: 'mbid'; mbid: string }
  | { by: 'bandcamp'; host: string }
  | { by: 'spotify'; id: string };

export type BreakoutWindow = '30d' | '90d';

export interface BreakoutsQuery {
  window: BreakoutWindow;
  genre: string | null;
  limit: number;
}

export interface TastemakersQuery {
  kind: 'label' | 'festival' | null;
  limit: number;
}

export interface OnesToWatchQuery {
  genre: string | null;
  limit: number;
}

export interface BandcampManifestQuery {
  tag: string | null;
  limit: number;
  /** cluster_id of the last artist of the previous page. */
  after: number | null;
}

export interface BandcampManifest {
  as_of: string | null;
  artists: Array<{ cluster_id: number; slug: string; name: string; url: string; followers: number; supporters: number }>;
}

export type BandcampReleaseQuery = { by: 'url'; url: string } | { by: 'artist'; cluster_id: number };

export interface BandcampReleaseData {
  artist: { cluster_id: number; slug: string; name: string };
  releases: Array<{ title: string; url: string; released: string | null; tags: string[] }>;
}

/** A master record serialized as JSON text (see Catalogue.mastersJson). */
export interface MasterJson {
  master_id: number;
  json: string;
}

export interface Catalogue {
  search(query: SearchQuery, options?: CallOptions): Promise<SearchHitData[]>;
  facets(query: FacetsQuery, options?: CallOptions): Promise<FacetsResult>;
  master(id: number, options?: CallOptions): Promise<MasterData | null>;
  /** Any order, each found id once; core puts them in request order. */
  masters(ids: number[], options?: CallOptions): Promise<MasterData[]>;
  /**
   * Optional: the records of `masters`, each already serialized, and byte for byte
   * `JSON.stringify` of the record `masters` returns. An adapter that stores serialized records
   * hands them over without parsing them only for the batch route to serialize them again
   * (for 500 masters, most of the batch's work). Any order, each found id once.
   */
  mastersJson?(ids: number[], options?: CallOptions): Promise<MasterJson[]>;
  masterDossier(id: number, options?: CallOptions): Promise<MasterDossierData | null>;
  /** Finds the agent a key names, optionally only of one kind. */
  findAgent(key: AgentKey, kind: AgentKind | null, options?: CallOptions): Promise<AgentIdentity | null>;
  artistDossier(clusterId: number, options?: CallOptions): Promise<ArtistDossier | null>;
  labelDossier(clusterId: number, options?: CallOptions): Promise<LabelDossier | null>;
  festivalDossier(clusterId: number, options?: CallOptions): Promise<FestivalDossier | null>;
  resolve(input: ResolveInput, options?: CallOptions): Promise<ClusterData | null>;
  bandcampArtist(clusterId: number, options?: CallOptions): Promise<BandcampSignals | null>;
  bandcampManifest(query: BandcampManifestQuery, options?: CallOptions): Promise<BandcampManifest>;
  bandcampReleases(query: BandcampReleaseQuery, options?: CallOptions): Promise<BandcampReleaseData | null>;
  breakouts(query: BreakoutsQuery, options?: CallOptions): Promise<{ as_of: string | null; items: Breakout[] }>;
  tastemakers(query: TastemakersQuery, options?: CallOptions): Promise<{ as_of: string | null; items: Tastemaker[] }>;
  onesToWatch(query: OnesToWatchQuery, options?: CallOptions): Promise<{ as_of: string | null; items: OneToWatch[] }>;
}

// ───────────────────────────── Accounts ─────────────────────────────

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

export interface Accounts {
  /** The key and its customer in one read; the gate's only store call. */
  findKeyByHash(hash: string, options?: CallOptions): Promise<KeyWithCustomer | null>;
  /** The key with this id and its customer (a beacon token names its key by id); null when none. */
  findKeyById(keyId: string, options?: CallOptions): Promise<KeyWithCustomer | null>;
  /** Creates the customer and its first key atomically. */
  createCustomerWithKey(customer: NewCustomer, key: NewKey): Promise<KeyWithCustomer>;
  /** Adds a key to an existing customer. */
  addKey(customerId: string, key: NewKey): Promise<ApiKey>;
  getCustomer(customerId: string): Promise<Customer | null>;
  listKeys(customerId: string): Promise<ApiKey[]>;
  /** Marks keys of customers whose grace window ended before `now` as suspended; returns how many. */
  suspendExpiredGrace(now: Date, graceMs: number): Promise<number>;
  /** Durable monthly usage, written by the limiter's flush job: adds `delta` to the stored count. */
  addUsage(customerId: string, environment: Environment, month: string, delta: number): Promise<void>;
  /** Durable monthly usage as last flushed. */
  getUsage(customerId: string, environment: Environment, month: string): Promise<number>;
  /** Stores one search-event beacon (already authenticated by its per-search token). */
  recordSearchEvent(event: SearchEvent): Promise<void>;

  // ── billing and the key lifecycle. Each method is atomic on its own (one transaction). ──

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
  /** Customers with this e-mail (compared case-insensitively), any status. */
  findCustomersByEmail(email: string): Promise<Customer[]>;
  /**
   * Customers the usage jobs look at: status other than canceled, and overage `bill` or a
   * contract tier (TIERS[tier].contract).
   */
  listCustomersForUsageReview(): Promise<Customer[]>;
  setOverage(customerId: string, overage: OverageMode): Promise<Customer | null>;
  /**
   * Atomically: the customer's key `keyId`, if active, becomes `rotated` and `newKey` is
   * inserted active. null (nothing changes) when the key is not the customer's or not active.
   */
  rotateKey(customerId: string, keyId: string, newKey: NewKey): Promise<{ old: ApiKey; key: ApiKey } | null>;
  /** The customer's key becomes `revoked` (from active or suspended; rotated/revoked stay). null when not the customer's. */
  revokeKey(customerId: string, keyId: string): Promise<ApiKey | null>;

  /** One-time reveal: deletes and returns the customer's unexpired reveal rows (newest first). */
  takeReveals(customerId: string, now: Date): Promise<RevealRow[]>;

  createLoginToken(token: LoginToken): Promise<void>;
  /** Single use: deletes the token row and returns its customer id when it exists and has not expired. */
  consumeLoginToken(hash: string, now: Date): Promise<string | null>;
  createSession(session: DashboardSession): Promise<void>;
  /** The customer id of an unexpired session. */
  findSession(hash: string, now: Date): Promise<string | null>;
  deleteSession(hash: string): Promise<void>;

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

  /** Overage already reported for the month (`reported`) and a report begun but not confirmed (`pending`). */
  getOverageCursor(customerId: string, month: string): Promise<OverageCursor>;
  /** Records that calls up to `through` are being reported (the meter event identifier derives from it). */
  setOveragePending(customerId: string, month: string, through: number): Promise<void>;
  /** reported = through, pending = null. */
  commitOverage(customerId: string, month: string, through: number): Promise<void>;
  /** Insert-if-absent of (customer, month); true only for the call that inserted. */
  claimContractReview(customerId: string, month: string): Promise<boolean>;

  /** Deletes expired reveal rows, login tokens and sessions. */
  purgeExpired(now: Date): Promise<void>;
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

// ───────────────────────────── Limiter ─────────────────────────────

export type LimitReason = 'burst' | 'quota' | 'concurrency';

/** The limits in force for one call, after tier and contract overrides. */
export interface LimitPolicy {
  burstPerMinute: number;
  concurrency: number;
  /** Calls per calendar month (UTC). */
  quotaPerMonth: number;
  /** block: 429 after the quota; bill / contract: never blocked by the quota. */
  quotaMode: 'block' | 'bill' | 'contract';
}

export interface AdmitRequest {
  customerId: string;
  environment: Environment;
  keyId: string;
  policy: LimitPolicy;
  /** Epoch milliseconds from the injected clock. */
  now: number;
}

export interface LimitDecision {
  allowed: boolean;
  reason: LimitReason | null;
  /** Burst limit per minute (X-RateLimit-Limit). */
  limit: number;
  /** Calls left in the burst window (X-RateLimit-Remaining). */
  remaining: number;
  /** Epoch seconds when the burst window resets (X-RateLimit-Reset). */
  reset: number;
  /** Seconds to wait when refused. */
  retryAfterSeconds: number;
  /** This month's count for the customer and environment, including this call when admitted. */
  monthCount: number;
  /** Frees the concurrency slot taken by an admitted call; idempotent. */
  release(): Promise<void>;
}

export interface BurstState {
  limit: number;
  remaining: number;
  reset: number;
}

export interface PublicDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  reset: number;
  retryAfterSeconds: number;
}

export interface Limiter {
  /** One call per authenticated request: burst + quota + concurrency, counted only when admitted. */
  admit(request: AdmitRequest): Promise<LimitDecision>;
  /** The burst window as it stands, without counting a call. */
  peek(request: AdmitRequest): Promise<BurstState>;
  /** Live count of calls this month (UTC month 'YYYY-MM'). */
  monthCount(customerId: string, environment: Environment, month: string): Promise<number>;
  /** Per-subject sliding window: a client IP for the public routes; a beacon token or IP for beacons. */
  admitPublic(ip: string, limitPerMinute: number, now: number): Promise<PublicDecision>;
  /** Periodic work (usage persistence, replay of buffered increments). */
  runJobs?(now: number): Promise<void>;
  /**
   * Shutdown, after the last request: make every call this instance admitted durable (usage is
   * billing data, decisions.md §8). Hosts call it before closing the stores it writes to.
   */
  close?(): Promise<void>;
}

// ───────────────────────────── Billing, Mailer ─────────────────────────────

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

// ───────────────────────────── Clock, Logger, Alarm, Hasher ─────────────────────────────

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A structured log record; `kind` names the event, e.g. `ratelimit.fail_open`. */
export interface LogRecord {
  level: LogLevel;
  kind: string;
  [field: string]: unknown;
}

export interface Logger {
  log(record: LogRecord): void;
}

export interface Alarm {
  raise(kind: string, detail: Record<string, unknown>): void;
}

/**
 * SHA-256 of the presented API key, on the gate's hot path. Core's default is pure JS
 * (@noble/hashes); hosts inject the runtime's native one (host-kit `nativeHasher`), several
 * times faster. Any correct implementation gives the same hashes, so the two can be mixed.
 */
export interface Hasher {
  /** SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits. */
  sha256Hex(text: string): string;
}

// ───────────────────────────── Search events ─────────────────────────────

/**
 * A search-event beacon: `observed` (which hits the user saw, at which positions) or `refined`
 * (the next query the user typed). search_id and key_id come from the verified beacon token.
 */
export type SearchEvent =
  | { kind: 'observed'; search_id: string; key_id: string; received_at: Date; hits: Array<{ id: number; position: number }> }
  | { kind: 'refined'; search_id: string; key_id: string; received_at: Date; q: string };
