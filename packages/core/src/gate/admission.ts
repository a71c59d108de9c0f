/**
 * Access decisions per route kind. `admitKey` is the gate: authenticate, then one Limiter
 * call for burst + quota + concurrency. A Limiter that throws fails open: the request goes on
 * without limit headers, a `ratelimit.fail_open` record is logged and the alarm raised
 * (the alarm is throttled to once a minute by the service).
 */
import type { ResolvedConfig } from '../config.js';
import { ApiError } from '../http/api-error.js';
import type { Principal } from '../http/route.js';
import type { AdmitRequest, CallOptions, LimitDecision, Ports } from '../ports/index.js';
import { CONTRACT_REVIEW_CALLS, monthOf } from '../tiers.js';
import { authenticate, presentedKey, principalOf } from './authenticate.js';
import { constantTimeEqual } from './hash.js';
import type { KeyCache } from './key-cache.js';
import { rateLimited, rateLimitHeaders } from './limit-headers.js';

export interface Admission {
  principal: Principal | null;
  /** Headers every answer to this request carries (X-RateLimit-*). */
  headers: Record<string, string> | null;
  /** Frees the concurrency slot; called once the answer is ready. */
  release: (() => Promise<void>) | null;
}

/**
 * `lifetime` is the request's: its AbortSignal is only made when the store reads it. `cache`
 * is the service's key cache when its limiter proves accounts epochs (key-cache.ts); counted
 * calls then skip the store's key lookup while the limiter's answer shows the entry current.
 */
export async function admitKey(
  request: Request,
  ports: Ports,
  now: number,
  counted: boolean,
  lifetime: CallOptions,
  cache: KeyCache | null = null,
): Promise<Admission> {
  if (!counted) {
    const principal = await authenticate(request, ports.accounts, ports.hasher, lifetime);
    try {
      // Usage names the quota policy too (issue 28 item 5): the month's count, read beside the peek.
      const month = ports.limiter.monthCount(principal.customer.id, principal.key.environment, monthOf(now));
      const [burst, used] = await Promise.all([ports.limiter.peek(admitRequestOf(principal, now)), month]);
      return { principal, headers: rateLimitHeaders(burst, now, { limit: principal.policy.quotaPerMonth, used }), release: null };
    } catch (error) {
      return failOpen(ports, principal, error);
    }
  }
  const presented = presentedKey(request, ports.hasher);
  const cached = cache?.get(presented.hash, now);
  if (cache && cached) {
    const principal = principalOf(cached.found, presented);
    let decision: LimitDecision;
    try {
      decision = await ports.limiter.admit(admitRequestOf(principal, now, cached.epoch));
    } catch (error) {
      // Without the limiter's answer nothing proves the entry current: read the store, then fail
      // open (the limiter has already kept this call for its replay; it is not admitted twice).
      cache.delete(presented.hash);
      return failOpen(ports, principalOf(await ports.accounts.findKeyByHash(presented.hash, lifetime), presented), error);
    }
    if (!decision.stale) return admitted(ports, principal, decision, now);
    cache.delete(presented.hash);
    // The epoch is known current now: a read from here on that finds it unchanged can be cached.
    if (decision.authEpoch !== undefined) cache.lastEpoch = decision.authEpoch;
  }
  // The epoch seen before the read: if it is still current after the read, no change raced it.
  const epochBefore = cache?.lastEpoch ?? null;
  const found = await ports.accounts.findKeyByHash(presented.hash, lifetime);
  const principal = principalOf(found, presented);
  let decision: LimitDecision;
  try {
    decision = await ports.limiter.admit(admitRequestOf(principal, now));
  } catch (error) {
    return failOpen(ports, principal, error);
  }
  if (cache && decision.authEpoch !== undefined) {
    if (epochBefore !== null && decision.authEpoch === epochBefore && found) cache.set(presented.hash, found, epochBefore, now);
    cache.lastEpoch = decision.authEpoch;
  }
  return admitted(ports, principal, decision, now);
}

function admitRequestOf(principal: Principal, now: number, authEpoch?: string): AdmitRequest {
  const request: AdmitRequest = {
    customerId: principal.customer.id,
    environment: principal.key.environment,
    keyId: principal.key.id,
    policy: principal.policy,
    now,
  };
  if (authEpoch !== undefined) request.authEpoch = authEpoch;
  return request;
}

async function admitted(ports: Ports, principal: Principal, decision: LimitDecision, now: number): Promise<Admission> {
  const quota = { limit: principal.policy.quotaPerMonth, used: decision.monthCount };
  if (!decision.allowed) throw rateLimited(decision, decision.reason ?? 'burst', now, quota);
  // Once per customer and month: live and test cross separately, and runJobs backs up a
  // crossing the gate missed; the claim makes all of them one alarm.
  if (
    principal.policy.quotaMode === 'contract' &&
    decision.monthCount === CONTRACT_REVIEW_CALLS + 1 &&
    (await ports.accounts.claimContractReview(principal.customer.id, monthOf(now)).catch(() => true))
  ) {
    const detail = { customer_id: principal.customer.id, environment: principal.key.environment, month: monthOf(now), calls: decision.monthCount };
    ports.logger.log({ level: 'warn', kind: 'quota.contract_review', ...detail });
    ports.alarm.raise('quota.contract_review', detail);
  }
  return { principal, headers: rateLimitHeaders(decision, now, quota), release: decision.release };
}

function failOpen(ports: Ports, principal: Principal, error: unknown): Admission {
  if (error instanceof ApiError) throw error;
  const detail = {
    customer_id: principal.customer.id,
    key_prefix: principal.key.display_prefix,
    error: error instanceof Error ? error.message : String(error),
  };
  ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', ...detail });
  ports.metrics.limiterFailOpen('key');
  ports.alarm.raise('ratelimit.fail_open', detail);
  return { principal, headers: null, release: null };
}

export async function admitPublic(ip: string, ports: Ports, config: ResolvedConfig, now: number): Promise<Admission> {
  try {
    const decision = await ports.limiter.admitPublic(ip, config.publicRateLimitPerMinute, now);
    if (!decision.allowed) throw rateLimited(decision, 'burst', now);
    return { principal: null, headers: rateLimitHeaders(decision, now), release: null };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'public', error: error instanceof Error ? error.message : String(error) });
    ports.metrics.limiterFailOpen('public');
    ports.alarm.raise('ratelimit.fail_open', { scope: 'public' });
    return { principal: null, headers: null, release: null };
  }
}

export async function checkAdmin(request: Request, config: ResolvedConfig): Promise<Admission> {
  const header = request.headers.get('authorization') ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!config.adminToken || !token || !constantTimeEqual(token, config.adminToken)) {
    throw new ApiError(401, 'unauthorized', { message: 'admin routes need Authorization: Bearer <ADMIN_TOKEN>' }, { 'www-authenticate': 'Bearer' });
  }
  return { principal: null, headers: null, release: null };
}
