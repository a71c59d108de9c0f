import { describe, expect, it } from 'vitest';
import { type RetryState, retryAfterMs, retryDelayMs } from './retry-policy.js';

const at = (over: Partial<RetryState>): RetryState => ({
  status: 503,
  retryAfter: null,
  retries: 0,
  internalRetries: 0,
  maxRetries: 10,
  random: 1,
  now: Date.parse('2026-11-23T12:00:00Z'),
  ...over,
});

describe('the retry guidance', () => {
  it('waits Retry-After first, in seconds or as a date', () => {
    expect(retryDelayMs(at({ status: 429, retryAfter: '7' }))).toBe(7000);
    expect(retryDelayMs(at({ status: 503, retryAfter: 'Mon, 23 Nov 2026 12:00:05 GMT' }))).toBe(5000);
  });

  it('backs off from 1 s doubling to 60 s on 429, 503 and 504, with equal jitter', () => {
    const full = [0, 1, 2, 3, 4, 5, 6, 7].map((retries) => retryDelayMs(at({ retries })));
    expect(full).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(retryDelayMs(at({ status: 504, retries: 2, random: 0 }))).toBe(2000);
    expect(retryDelayMs(at({ status: 429, retries: 2, random: 0.5 }))).toBe(3000);
  });

  it('retries a 500 once, after 5 s', () => {
    expect(retryDelayMs(at({ status: 500 }))).toBe(5000);
    expect(retryDelayMs(at({ status: 500, retries: 1, internalRetries: 1 }))).toBeNull();
  });

  it('never retries another status, past the retry budget, or a Retry-After beyond the cap', () => {
    for (const status of [200, 400, 401, 402, 404, 409, 410, 413, 422]) expect(retryDelayMs(at({ status })), String(status)).toBeNull();
    expect(retryDelayMs(at({ retries: 10 }))).toBeNull();
    expect(retryDelayMs(at({ status: 429, retryAfter: String(3 * 24 * 3600) }))).toBeNull();
  });

  it('reads no Retry-After from garbage', () => {
    expect(retryAfterMs('soon', 0)).toBeNull();
    expect(retryAfterMs('', 0)).toBeNull();
  });
});
