/**
 * The rate-limit headers of an answer: the spec's `X-RateLimit-*` (the burst window), and beside
 * them the IETF fields of draft-ietf-httpapi-ratelimit-headers (structured fields, RFC 8941):
 *
 *   RateLimit-Policy: "burst";q=60;w=60, "quota";q=10000;w=2678400
 *   RateLimit: "burst";r=59;t=60, "quota";r=9990;t=1209600
 *
 * `q` is the policy's quota and `w` its window in seconds; `r` what remains and `t` the seconds
 * until it does reset. The burst policy is the per-minute window; the quota policy the calendar
 * month (UTC), whose window is that month's length in seconds. docs/decisions.md §2.
 */
import { ApiError } from '../errors/api-error.js';
import type { BurstState, LimitDecision, PublicDecision } from '../ports/index.js';
import { monthBounds } from '../tiers.js';

/** The monthly quota as it stands after this call: `used` includes it when it was counted. */
export interface QuotaState {
  limit: number;
  used: number;
}

export function rateLimitHeaders(state: BurstState, now: number, quota: QuotaState | null = null): Record<string, string> {
  const remaining = Math.max(0, state.remaining);
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(state.reset),
  };
  addIetfFields(headers, state.limit, remaining, Math.max(0, Math.ceil(state.reset - now / 1000)), now, quota);
  return headers;
}

const BURST_WINDOW_SECONDS = 60;

/**
 * `RateLimit-Policy` and `RateLimit`: the burst item, and the quota item when the caller has a
 * monthly quota (keys; the per-IP windows of the public routes have none).
 */
function addIetfFields(headers: Record<string, string>, limit: number, remaining: number, resetIn: number, now: number, quota: QuotaState | null): void {
  let policy = `"burst";q=${limit};w=${BURST_WINDOW_SECONDS}`;
  // X-RateLimit-Reset is a whole epoch second rounded up, so from a call between two seconds it
  // reads up to 61 s away; the window is 60 s, and `t` never says more than `w` (issue 28 item 5).
  let current = `"burst";r=${remaining};t=${Math.min(BURST_WINDOW_SECONDS, Math.max(0, resetIn))}`;
  if (quota) {
    const month = monthBounds(now);
    policy += `, "quota";q=${quota.limit};w=${(month.to - month.from) / 1000}`;
    current += `, "quota";r=${Math.max(0, quota.limit - quota.used)};t=${Math.ceil((month.to - now) / 1000)}`;
  }
  headers['ratelimit-policy'] = policy;
  headers.ratelimit = current;
}

/**
 * The spec's 429: Retry-After and X-RateLimit-* headers, body with retry_after_seconds and
 * reason; and the IETF fields, with `r=0` on the limit that refused.
 */
export function rateLimited(decision: LimitDecision | PublicDecision, reason: string, now: number, quota: QuotaState | null = null): ApiError {
  const retry = Math.max(1, Math.ceil(decision.retryAfterSeconds));
  const headers: Record<string, string> = {
    'retry-after': String(retry),
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset': String(decision.reset),
  };
  const burstLeft = reason === 'burst' ? 0 : Math.max(0, decision.remaining);
  const burstReset = reason === 'burst' ? retry : Math.max(0, Math.ceil(decision.reset - now / 1000));
  addIetfFields(
    headers,
    decision.limit,
    burstLeft,
    burstReset,
    now,
    reason === 'quota' && quota ? { limit: quota.limit, used: Math.max(quota.used, quota.limit) } : quota,
  );
  return new ApiError('rate_limited', { retry_after_seconds: retry, reason }, headers);
}
