/**
 * The rate-limit headers (limit-headers.ts): the spec's X-RateLimit-* and the IETF
 * RateLimit-Policy / RateLimit fields, which a client reads to pace itself.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import type { LimitDecision } from '../ports/index.js';
import { rateLimited, rateLimitHeaders } from './limit-headers.js';

/** 2026-03-10 12:00 UTC: March has 31 days (2,678,400 s) and 21.5 of them are left (1,857,600 s). */
const NOW = Date.UTC(2026, 2, 10, 12);
const NOW_S = NOW / 1000;
const MARCH = 31 * 86_400;
const LEFT_IN_MARCH = 21.5 * 86_400;

describe('rateLimitHeaders', () => {
  it('the burst window, without a quota item for a caller without a quota', () => {
    expect(rateLimitHeaders({ limit: 60, remaining: 12, reset: NOW_S + 30 }, NOW)).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '12',
      'x-ratelimit-reset': String(NOW_S + 30),
      'ratelimit-policy': '"burst";q=60;w=60',
      ratelimit: '"burst";r=12;t=30',
    });
  });

  it('the quota item: its quota, the month’s length, what is left and the seconds to the month’s end', () => {
    const headers = rateLimitHeaders({ limit: 60, remaining: 59, reset: NOW_S + 60 }, NOW, { limit: 10_000, used: 10 });
    expect(headers['ratelimit-policy']).toBe(`"burst";q=60;w=60, "quota";q=10000;w=${MARCH}`);
    expect(headers.ratelimit).toBe(`"burst";r=59;t=60, "quota";r=9990;t=${LEFT_IN_MARCH}`);
    // February 2026 has 28 days; seconds to its end are rounded up.
    const feb = Date.UTC(2026, 1, 28, 23, 59, 59, 500);
    const inFeb = rateLimitHeaders({ limit: 5, remaining: 1, reset: Math.ceil(feb / 1000) + 59 }, feb, { limit: 3, used: 1 });
    expect(inFeb['ratelimit-policy']).toBe(`"burst";q=5;w=60, "quota";q=3;w=${28 * 86_400}`);
    expect(inFeb.ratelimit).toBe('"burst";r=1;t=60, "quota";r=2;t=1');
  });

  it('never reports less than nothing left, nor a negative time', () => {
    const headers = rateLimitHeaders({ limit: 60, remaining: -3, reset: NOW_S - 5 }, NOW, { limit: 100, used: 130 });
    expect(headers['x-ratelimit-remaining']).toBe('0');
    expect(headers.ratelimit).toBe(`"burst";r=0;t=0, "quota";r=0;t=${LEFT_IN_MARCH}`);
  });

  it('rounds the burst reset up, and never says more than the 60 s window', () => {
    // X-RateLimit-Reset is a whole second: from 0.5 s into a second it reads 61 s away.
    const headers = rateLimitHeaders({ limit: 60, remaining: 1, reset: NOW_S + 61 }, NOW + 500);
    expect(headers.ratelimit).toBe('"burst";r=1;t=60');
    expect(rateLimitHeaders({ limit: 60, remaining: 1, reset: NOW_S + 10 }, NOW + 500).ratelimit).toBe('"burst";r=1;t=10');
    expect(rateLimitHeaders({ limit: 60, remaining: 1, reset: NOW_S + 10 }, NOW + 1).ratelimit).toBe('"burst";r=1;t=10');
  });
});

const decision = (over: Partial<LimitDecision> = {}): LimitDecision => ({
  allowed: false,
  reason: 'burst',
  limit: 60,
  remaining: 0,
  reset: NOW_S + 40,
  retryAfterSeconds: 40,
  monthCount: 10,
  release: async () => {},
  ...over,
});

describe('rateLimited: the spec’s 429', () => {
  it('burst: Retry-After, body, X-RateLimit-* with nothing left, and r=0 with t the wait', () => {
    const error = rateLimited(decision({ retryAfterSeconds: 12.2, remaining: 7 }), 'burst', NOW, { limit: 10_000, used: 500 });
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
    expect(error.body).toEqual({ retry_after_seconds: 13, reason: 'burst' });
    expect(error.headers).toEqual({
      'retry-after': '13',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(NOW_S + 40),
      'ratelimit-policy': `"burst";q=60;w=60, "quota";q=10000;w=${MARCH}`,
      ratelimit: `"burst";r=0;t=13, "quota";r=9500;t=${LEFT_IN_MARCH}`,
    });
  });

  it('waits at least one second', () => {
    const error = rateLimited(decision({ retryAfterSeconds: 0 }), 'burst', NOW);
    expect(error.headers['retry-after']).toBe('1');
    expect(error.body.retry_after_seconds).toBe(1);
    expect(error.headers.ratelimit).toBe('"burst";r=0;t=1');
    expect(rateLimited(decision({ retryAfterSeconds: 0.4 }), 'burst', NOW).headers['retry-after']).toBe('1');
    expect(rateLimited(decision({ retryAfterSeconds: 1.01 }), 'burst', NOW).headers['retry-after']).toBe('2');
  });

  it('quota: the quota item says r=0 even when the count is short of it (another instance spent it)', () => {
    const error = rateLimited(decision({ reason: 'quota', remaining: 42, retryAfterSeconds: 3600 }), 'quota', NOW, { limit: 10_000, used: 9_990 });
    expect(error.headers.ratelimit).toBe(`"burst";r=42;t=40, "quota";r=0;t=${LEFT_IN_MARCH}`);
    expect(error.body).toEqual({ retry_after_seconds: 3600, reason: 'quota' });
    // A count past the quota stays as it is (r is 0 either way).
    expect(rateLimited(decision(), 'quota', NOW, { limit: 10, used: 12 }).headers.ratelimit).toBe(`"burst";r=0;t=40, "quota";r=0;t=${LEFT_IN_MARCH}`);
    expect(rateLimited(decision(), 'quota', NOW).headers['ratelimit-policy']).toBe('"burst";q=60;w=60');
  });

  it('concurrency: the burst window as it stands, and the quota left', () => {
    const error = rateLimited(decision({ reason: 'concurrency', remaining: 30, retryAfterSeconds: 1 }), 'concurrency', NOW + 250, { limit: 100, used: 40 });
    expect(error.headers.ratelimit).toBe(`"burst";r=30;t=40, "quota";r=60;t=${LEFT_IN_MARCH}`);
    expect(rateLimited(decision({ remaining: -2, reset: NOW_S - 3 }), 'concurrency', NOW).headers.ratelimit).toBe('"burst";r=0;t=0');
  });
});
