/**
 * Access decisions per route kind. `admitKey` is the gate: authenticate, then one Limiter
 * call for burst + quota + concurrency. A Limiter that throws fails open: the request goes on
 * without limit headers, a `ratelimit.fail_open` record is logged and the alarm raised
 * (the alarm is throttled to once a minute by the service).
 */
import type { ResolvedConfig } from '../config.js';
import { ApiError } from '../http/api-error.js';
import type { Principal } from '../http/route.js';
import type { AdmitRequest, CallOptions, Ports } from '../ports/index.js';
import { CONTRACT_REVIEW_CALLS, monthOf } from '../tiers.js';
import { authenticate } from './authenticate.js';
import { constantTimeEqual } from './hash.js';
import { rateLimited, rateLimitHeaders } from './limit-headers.js';

export interface Admission {
  principal: Principal | null;
  /** Headers every answer to this request carries (X-RateLimit-*). */
  headers: Record<string, string> | null;
  /** Frees the concurrency slot; called once the answer is ready. */
  release: (() => Promise<void>) | null;
}

/** `lifetime` is the request's: its AbortSignal is only made when the store reads it. */
export async function admitKey(request: Request, ports: Ports, now: number, counted: boolean, lifetime: CallOptions): Promise<Admission> {
  const principal = await authenticate(request, ports.accounts, ports.hasher, lifetime);
  const admitRequest: AdmitRequest = {
    customerId: principal.customer.id,
    environment: principal.key.environment,
    keyId: principal.key.id,
    policy: principal.policy,
    now,
  };
  try {
    if (!counted) {
      return { principal, headers: rateLimitHeaders(await ports.limiter.peek(admitRequest)), release: null };
    }
    const decision = await ports.limiter.admit(admitRequest);
    if (!decision.allowed) throw rateLimited(decision, decision.reason ?? 'burst');
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
    return { principal, headers: rateLimitHeaders(decision), release: decision.release };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const detail = {
      customer_id: principal.customer.id,
      key_prefix: principal.key.display_prefix,
      error: error instanceof Error ? error.message : String(error),
    };
    ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', ...detail });
    ports.alarm.raise('ratelimit.fail_open', detail);
    return { principal, headers: null, release: null };
  }
}

export async function admitPublic(ip: string, ports: Ports, config: ResolvedConfig, now: number): Promise<Admission> {
  try {
    const decision = await ports.limiter.admitPublic(ip, config.publicRateLimitPerMinute, now);
    if (!decision.allowed) throw rateLimited(decision, 'burst');
    return { principal: null, headers: rateLimitHeaders(decision), release: null };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    ports.logger.log({ level: 'warn', kind: 'ratelimit.fail_open', scope: 'public', error: error instanceof Error ? error.message : String(error) });
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
