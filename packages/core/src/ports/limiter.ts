/** The Limiter port: one decision per admitted request (burst + quota + concurrency), and the per-subject windows of the public routes and beacons. */
import type { Environment } from './accounts.js';

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
  /**
   * The accounts epoch a cached principal was read under (gate/key-cache.ts). A limiter that
   * proves epochs (`bumpAuthEpoch`) answers `stale` without counting when the epoch has moved
   * on since: the cached key or customer may have changed, so the gate reads them again.
   */
  authEpoch?: string;
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
  /** The accounts epoch as the limiter's store holds it now (limiters that prove epochs). */
  authEpoch?: string;
  /** True when `AdmitRequest.authEpoch` was given and is no longer current: nothing was counted. */
  stale?: boolean;
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

/** A per-subject window other than the public routes' minute, or a look at one without counting. */
export interface SubjectWindow {
  /** The window's length in ms (default 60,000). */
  windowMs?: number;
  /** Read the window without counting a call. */
  peek?: boolean;
}

export interface Limiter {
  /** One call per authenticated request: burst + quota + concurrency, counted only when admitted. */
  admit(request: AdmitRequest): Promise<LimitDecision>;
  /** The burst window as it stands, without counting a call. */
  peek(request: AdmitRequest): Promise<BurstState>;
  /** Live count of calls this month (UTC month 'YYYY-MM'). */
  monthCount(customerId: string, environment: Environment, month: string): Promise<number>;
  /**
   * Per-subject sliding window: a client IP for the public routes; a beacon token or IP for
   * beacons; an address for sign-in mails and an IP for failed admin tokens (`window`). `limit`
   * calls per window (60 s unless `window.windowMs` says otherwise); with `window.peek` the
   * window is read without counting a call (allowed: the next call would be).
   */
  admitPublic(ip: string, limit: number, now: number, window?: SubjectWindow): Promise<PublicDecision>;
  /** Periodic work (usage persistence, replay of buffered increments). */
  runJobs?(now: number): Promise<void>;
  /**
   * True for a limiter that decides in this process's memory (core's memory limiter): its
   * decisions cannot fail, so /readyz does not watch them fail open (docs/decisions.md §8).
   * Any other limiter's fail-opens are watched.
   */
  readonly inProcess?: boolean;
  /**
   * Moves the accounts epoch on, shared by every instance: called after any change of a key or
   * customer that the gate reads (revoke, rotate, suspension, restoration, tier, overage), so
   * no instance's key cache answers from before it (docs/decisions.md §3). A limiter without it
   * cannot prove a cache fresh, and the gate reads the store on every request.
   */
  bumpAuthEpoch?(): Promise<void>;
  /**
   * Shutdown, after the last request: make every call this instance admitted durable (usage is
   * billing data, docs/decisions.md §8). Hosts call it before closing the stores it writes to.
   */
  close?(): Promise<void>;
}
