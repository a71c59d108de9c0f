/**
 * The only doors out of core. Every port has an in-memory implementation in `memory/` and a
 * real one in an adapter package; the conformance suite runs the same assertions on both.
 * Nothing here may name a runtime.
 */
import type { AgentKind, ArtistDossier, BandcampSignals, Breakout, ClusterData, FacetValue, FestivalDossier, LabelDossier, MasterData, MasterDossierData, OneToWatch, SearchHitData, Tastemaker } from './schemas/records.js';
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
export type AgentKey =
  | { by: 'cluster_id'; cluster_id: number }
  | { by: 'slug'; slug: string }
  | { by: 'discogs'; id: number }
  | { by: 'mbid'; mbid: string };

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

export interface Catalogue {
  search(query: SearchQuery, options?: CallOptions): Promise<SearchHitData[]>;
  facets(query: FacetsQuery, options?: CallOptions): Promise<FacetsResult>;
  master(id: number, options?: CallOptions): Promise<MasterData | null>;
  /** Any order, each found id once; core puts them in request order. */
  masters(ids: number[], options?: CallOptions): Promise<MasterData[]>;
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
  /** Per-IP sliding window for the public routes. */
  admitPublic(ip: string, limitPerMinute: number, now: number): Promise<PublicDecision>;
  /** Periodic work (usage persistence, replay of buffered increments). */
  runJobs?(now: number): Promise<void>;
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

// ───────────────────────────── Clock, Logger, Alarm ─────────────────────────────

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
