/**
 * The specification's client retry guidance as one pure function (interface spec, "Client retry
 * guidance" and "Backoff"): 429, 503 and 504 are transient — wait `Retry-After` when the answer
 * says it, else back off from 1 s doubling on each further retry to at most 60 s, with jitter;
 * 500 is retried once, after 5 s; any other status is final (a 4xx is fixed by the caller).
 */

export const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;
export const INTERNAL_RETRY_MS = 5_000;

export interface RetryState {
  /** The answer's status. */
  status: number;
  /** Its `Retry-After` header, if any (seconds or an HTTP date). */
  retryAfter: string | null;
  /** How many retries this call has made already (0 before the first). */
  retries: number;
  /** How many of those followed a 500. */
  internalRetries: number;
  /** The most retries this call may make. */
  maxRetries: number;
  /** A number in [0, 1): the jitter. */
  random: number;
  /** Epoch ms now (for a `Retry-After` given as a date). */
  now: number;
}

/** Milliseconds to wait before retrying, or null when the answer is final. */
export function retryDelayMs(state: RetryState): number | null {
  if (state.retries >= state.maxRetries) return null;
  if (state.status === 500) return state.internalRetries === 0 ? INTERNAL_RETRY_MS : null;
  if (state.status !== 429 && state.status !== 503 && state.status !== 504) return null;
  const told = retryAfterMs(state.retryAfter, state.now);
  if (told !== null) {
    // A wait past the backoff cap (a monthly quota spent until the 1st) is not a transient
    // fault: hand the answer back rather than sleep for hours.
    return told <= MAX_BACKOFF_MS ? told : null;
  }
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** state.retries);
  // "Equal jitter": between half the step and the step, so retries spread out and still double.
  return Math.round(ceiling / 2 + (ceiling / 2) * state.random);
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
