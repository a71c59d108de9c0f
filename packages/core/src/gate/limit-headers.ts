import { ApiError } from '../http/api-error.js';
import type { BurstState, LimitDecision, PublicDecision } from '../ports/index.js';

export function rateLimitHeaders(state: BurstState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(Math.max(0, state.remaining)),
    'x-ratelimit-reset': String(state.reset),
  };
}

/** The spec's 429: Retry-After and X-RateLimit-* headers, body with retry_after_seconds and reason. */
export function rateLimited(decision: LimitDecision | PublicDecision, reason: string): ApiError {
  const retry = Math.max(1, Math.ceil(decision.retryAfterSeconds));
  return new ApiError(
    429,
    'rate_limited',
    { retry_after_seconds: retry, reason },
    {
      'retry-after': String(retry),
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(decision.reset),
    },
  );
}
