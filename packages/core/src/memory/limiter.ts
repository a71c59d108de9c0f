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
 */
import type { AdmitRequest, BurstState, Environment, LimitDecision, Limiter, PublicDecision } from '../ports.js';
import { monthOf, nextMonthStart } from '../tiers.js';
import { SlidingLog } from './sliding-log.js';
import { type WindowCounts, rollWindow, windowState } from './sliding-window.js';

export const BURST_WINDOW_MS = 60_000;
export const LEASE_MS = 60_000;

export interface MemoryLimiter extends Limiter {
  /** In-flight leases of a key (expired ones excluded) — for tests. */
  inFlight(keyId: string, now: number): number;
}

export function createMemoryLimiter(): MemoryLimiter {
  const windows = new Map<string, WindowCounts>();
  const logs = new Map<string, SlidingLog>();
  const months = new Map<string, number>();
  const leases = new Map<string, Map<number, number>>();
  let nextLease = 1;

  function burst(key: string, now: number): { counts: WindowCounts; estimate: number; resetAt: number } {
    const counts = rollWindow(windows.get(key) ?? { window: Math.floor(now / BURST_WINDOW_MS), current: 0, previous: 0 }, now, BURST_WINDOW_MS);
    windows.set(key, counts);
    return { counts, ...windowState(counts, now, BURST_WINDOW_MS) };
  }

  function burstLog(owner: string, now: number): { log: SlidingLog; used: number } {
    let log = logs.get(owner);
    if (!log) {
      log = new SlidingLog(BURST_WINDOW_MS);
      logs.set(owner, log);
    }
    return { log, used: log.count(now) };
  }

  function liveLeases(keyId: string, now: number): Map<number, number> {
    const held = leases.get(keyId) ?? new Map<number, number>();
    for (const [id, expiresAt] of held) if (expiresAt <= now) held.delete(id);
    leases.set(keyId, held);
    return held;
  }

  const customerKey = (customerId: string, environment: Environment) => `${customerId}:${environment}`;

  return {
    async admit(request: AdmitRequest): Promise<LimitDecision> {
      const { policy, now } = request;
      const owner = customerKey(request.customerId, request.environment);
      const monthKey = `${owner}:${monthOf(now)}`;
      const used = months.get(monthKey) ?? 0;
      const b = burstLog(owner, now);
      const held = liveLeases(request.keyId, now);
      const reset = Math.ceil(b.log.nextFree(now) / 1000);
      const base = { limit: policy.burstPerMinute, reset, monthCount: used, release: async () => {} };

      if (policy.quotaMode === 'block' && used >= policy.quotaPerMonth) {
        return { ...base, allowed: false, reason: 'quota', remaining: 0, retryAfterSeconds: Math.ceil((nextMonthStart(now) - now) / 1000) };
      }
      if (b.used >= policy.burstPerMinute) {
        return { ...base, allowed: false, reason: 'burst', remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((b.log.nextFree(now) - now) / 1000)) };
      }
      if (held.size >= policy.concurrency) {
        // Slots free as soon as an in-flight call returns, typically well under a second.
        return { ...base, allowed: false, reason: 'concurrency', remaining: Math.max(0, policy.burstPerMinute - b.used), retryAfterSeconds: 1 };
      }

      b.log.add(now);
      months.set(monthKey, used + 1);
      const leaseId = nextLease++;
      held.set(leaseId, now + LEASE_MS);
      return {
        ...base,
        reset: Math.ceil(b.log.nextFree(now) / 1000),
        allowed: true,
        reason: null,
        remaining: Math.max(0, policy.burstPerMinute - (b.used + 1)),
        retryAfterSeconds: 0,
        monthCount: used + 1,
        release: async () => {
          leases.get(request.keyId)?.delete(leaseId);
        },
      };
    },

    async peek(request: AdmitRequest): Promise<BurstState> {
      const b = burstLog(customerKey(request.customerId, request.environment), request.now);
      return { limit: request.policy.burstPerMinute, remaining: Math.max(0, request.policy.burstPerMinute - b.used), reset: Math.ceil(b.log.nextFree(request.now) / 1000) };
    },

    async monthCount(customerId, environment, month) {
      return months.get(`${customerKey(customerId, environment)}:${month}`) ?? 0;
    },

    async admitPublic(ip: string, limitPerMinute: number, now: number): Promise<PublicDecision> {
      const b = burst(`ip:${ip}`, now);
      const reset = Math.ceil(b.resetAt / 1000);
      if (b.estimate >= limitPerMinute) {
        return { allowed: false, limit: limitPerMinute, remaining: 0, reset, retryAfterSeconds: Math.max(1, Math.ceil((b.resetAt - now) / 1000)) };
      }
      b.counts.current += 1;
      return { allowed: true, limit: limitPerMinute, remaining: Math.max(0, limitPerMinute - (b.estimate + 1)), reset, retryAfterSeconds: 0 };
    },

    async runJobs(now: number) {
      // Forget windows and lease sets nobody used for two windows, so memory stays bounded.
      const current = Math.floor(now / BURST_WINDOW_MS);
      for (const [key, counts] of windows) if (counts.window < current - 1) windows.delete(key);
      for (const [key, log] of logs) if (log.count(now) === 0) logs.delete(key);
      for (const [keyId] of leases) if (liveLeases(keyId, now).size === 0) leases.delete(keyId);
    },

    inFlight(keyId, now) {
      return liveLeases(keyId, now).size;
    },
  };
}
