/**
 * The Limiter in process memory (one instance only; use @catalogue/upstash to share limits).
 * Semantics every Limiter follows (the conformance suite checks them):
 * - burst: exact sliding window (a log of call times) of 60 s per customer + environment;
 *   X-RateLimit-Reset is when the oldest counted call leaves the window (the next free slot);
 * - quota: calls per UTC calendar month per customer + environment; `block` refuses the call
 *   after the quota, `bill` and `contract` never refuse;
 * - concurrency: leases per key, freed by release() or after 60 s;
 * - checks in the order quota → burst → concurrency; a refused call counts nowhere;
 * - public routes: the weighted two-window estimate of @upstash/ratelimit per IP (an abuse
 *   guard, where an approximation is fine and memory per IP stays constant).
 *
 * With `durable` (the Accounts port: what hosts pass on a database without Redis), month
 * counts are seeded from and flushed to durable usage (month-counts.ts): runJobs every minute,
 * close() at shutdown.
 */
import type { AdmitRequest, BurstState, Environment, LimitDecision, Limiter, Logger, PublicDecision, SubjectWindow } from '../ports/index.js';
import { monthOf, nextMonthStart } from '../tiers.js';
import { type DurableMonths, MonthCounts, type MonthState } from './month-counts.js';
import { SlidingLog } from './sliding-log.js';
import { rollWindow, type WindowCounts, windowState } from './sliding-window.js';

export const BURST_WINDOW_MS = 60_000;
export const LEASE_MS = 60_000;

export interface MemoryLimiter extends Limiter {
  /** In-flight leases of a key (expired ones excluded) — for tests. */
  inFlight(keyId: string, now: number): number;
}

/** Counters of one customer in one environment. */
interface Owner {
  log: SlidingLog;
  months: Map<string, MonthState>;
}

export interface MemoryLimiterOptions {
  /** Durable monthly usage to seed from and flush to (omit for a purely in-memory limiter). */
  durable?: DurableMonths;
  logger?: Logger;
  /**
   * Prove accounts epochs (Limiter.bumpAuthEpoch) so the gate caches key lookups. Only for one
   * process that every accounts change goes through (tests, a single embedded instance): the
   * epoch lives in this process, so another instance's change could not move it.
   */
  authEpochs?: boolean;
}

const noRelease = async () => {};

function staleDecision(limit: number, authEpoch: string): LimitDecision {
  return { allowed: false, stale: true, reason: null, limit, remaining: 0, reset: 0, retryAfterSeconds: 0, monthCount: 0, release: noRelease, authEpoch };
}

export function createMemoryLimiter(options: MemoryLimiterOptions = {}): MemoryLimiter {
  // customer id → environment → counters: nested maps spare a key concatenation per call.
  const owners = new Map<string, { live?: Owner; test?: Owner }>();
  const windows = new Map<string, WindowCounts>();
  /** The length of each window not of the default minute (sign-in mails: an hour). */
  const windowLengths = new Map<string, number>();
  const leases = new Map<string, Map<number, number>>();
  const counts = new MonthCounts(options.durable ?? null, options.logger ?? null, (state) =>
    owners.get(state.customerId)?.[state.environment]?.months.delete(state.month),
  );
  let nextLease = 1;
  const epochs = options.authEpochs === true;
  let epoch = crypto.randomUUID();

  /** The month's count, seeded from durable usage on first use (no await once seeded). */
  function monthState(owner: Owner, customerId: string, environment: Environment, month: string): MonthState | Promise<MonthState> {
    let state = owner.months.get(month);
    if (!state) {
      state = counts.create(customerId, environment, month);
      owner.months.set(month, state);
    }
    if (state.seeded) return state;
    const seeding = state;
    return counts.seed(seeding).then(() => seeding);
  }

  function ownerOf(customerId: string, environment: Environment): Owner {
    let byEnv = owners.get(customerId);
    if (!byEnv) {
      byEnv = {};
      owners.set(customerId, byEnv);
    }
    let owner = byEnv[environment];
    if (!owner) {
      owner = { log: new SlidingLog(BURST_WINDOW_MS), months: new Map() };
      byEnv[environment] = owner;
    }
    return owner;
  }

  function liveLeases(keyId: string, now: number): Map<number, number> {
    let held = leases.get(keyId);
    if (!held) {
      held = new Map<number, number>();
      leases.set(keyId, held);
    }
    for (const [id, expiresAt] of held) if (expiresAt <= now) held.delete(id);
    return held;
  }

  function publicWindow(ip: string, now: number, windowMs: number) {
    const key = windowMs === BURST_WINDOW_MS ? `ip:${ip}` : `ip:${ip}:${windowMs}`;
    const counts = rollWindow(windows.get(key) ?? { window: Math.floor(now / windowMs), current: 0, previous: 0 }, now, windowMs);
    windows.set(key, counts);
    if (windowMs !== BURST_WINDOW_MS) windowLengths.set(key, windowMs);
    return { counts, ...windowState(counts, now, windowMs) };
  }

  return {
    // A failed seed or flush is kept and retried (month-counts.ts): no decision here fails.
    inProcess: true,

    async admit(request: AdmitRequest): Promise<LimitDecision> {
      const { policy, now } = request;
      if (epochs && request.authEpoch !== undefined && request.authEpoch !== epoch) return staleDecision(policy.burstPerMinute, epoch);
      const owner = ownerOf(request.customerId, request.environment);
      const month = monthOf(now);
      let state = monthState(owner, request.customerId, request.environment, month);
      if (state instanceof Promise) state = await state;
      const used = state.count;
      const inWindow = owner.log.count(now);
      const held = liveLeases(request.keyId, now);
      const limit = policy.burstPerMinute;

      let reason: LimitDecision['reason'] = null;
      let retryAfterSeconds = 0;
      if (policy.quotaMode === 'block' && used >= policy.quotaPerMonth) {
        reason = 'quota';
        retryAfterSeconds = Math.ceil((nextMonthStart(now) - now) / 1000);
      } else if (inWindow >= limit) {
        reason = 'burst';
        retryAfterSeconds = Math.max(1, Math.ceil((owner.log.nextFree(now) - now) / 1000));
      } else if (held.size >= policy.concurrency) {
        // Slots free as soon as an in-flight call returns, typically well under a second.
        reason = 'concurrency';
        retryAfterSeconds = 1;
      }
      if (reason !== null) {
        const remaining = reason === 'concurrency' ? Math.max(0, limit - inWindow) : 0;
        return {
          allowed: false,
          reason,
          limit,
          remaining,
          reset: Math.ceil(owner.log.nextFree(now) / 1000),
          retryAfterSeconds,
          monthCount: used,
          release: noRelease,
          ...(epochs ? { authEpoch: epoch } : {}),
        };
      }

      owner.log.add(now);
      counts.add(state);
      const leaseId = nextLease++;
      held.set(leaseId, now + LEASE_MS);
      return {
        allowed: true,
        reason: null,
        limit,
        remaining: Math.max(0, limit - (inWindow + 1)),
        reset: Math.ceil(owner.log.nextFree(now) / 1000),
        retryAfterSeconds: 0,
        monthCount: used + 1,
        release: async () => {
          held.delete(leaseId);
        },
        ...(epochs ? { authEpoch: epoch } : {}),
      };
    },

    async peek(request: AdmitRequest): Promise<BurstState> {
      const owner = ownerOf(request.customerId, request.environment);
      const limit = request.policy.burstPerMinute;
      return { limit, remaining: Math.max(0, limit - owner.log.count(request.now)), reset: Math.ceil(owner.log.nextFree(request.now) / 1000) };
    },

    async monthCount(customerId, environment, month) {
      return counts.fresh(await monthState(ownerOf(customerId, environment), customerId, environment, month));
    },

    async admitPublic(ip: string, limit: number, now: number, window: SubjectWindow = {}): Promise<PublicDecision> {
      const b = publicWindow(ip, now, window.windowMs ?? BURST_WINDOW_MS);
      const reset = Math.ceil(b.resetAt / 1000);
      if (b.estimate >= limit) {
        return { allowed: false, limit, remaining: 0, reset, retryAfterSeconds: Math.max(1, Math.ceil((b.resetAt - now) / 1000)) };
      }
      if (window.peek) return { allowed: true, limit, remaining: limit - b.estimate, reset, retryAfterSeconds: 0 };
      b.counts.current += 1;
      return { allowed: true, limit, remaining: Math.max(0, limit - (b.estimate + 1)), reset, retryAfterSeconds: 0 };
    },

    async runJobs(now: number) {
      // Forget what nobody used for two windows, so memory stays bounded.
      for (const [key, counts] of windows) {
        const windowMs = windowLengths.get(key) ?? BURST_WINDOW_MS;
        if (counts.window < Math.floor(now / windowMs) - 1) {
          windows.delete(key);
          windowLengths.delete(key);
        }
      }
      for (const [keyId] of leases) if (liveLeases(keyId, now).size === 0) leases.delete(keyId);
      await counts.flush(monthOf(now));
    },

    async close() {
      await counts.flush(monthOf(Date.now()));
    },

    ...(epochs
      ? {
          async bumpAuthEpoch() {
            epoch = crypto.randomUUID();
          },
        }
      : {}),

    inFlight(keyId, now) {
      return liveLeases(keyId, now).size;
    },
  };
}
