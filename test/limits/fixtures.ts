/** Shared pieces of the limiter suites: policies, requests, key cleanup. */
import type { AdmitRequest, LimitPolicy } from '@catalogue/core';
import { Redis as IORedis } from 'ioredis';

export const SHARED_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export const policy = (overrides: Partial<LimitPolicy> = {}): LimitPolicy => ({
  burstPerMinute: 1_000_000,
  concurrency: 1_000_000,
  quotaPerMonth: 1_000_000,
  quotaMode: 'block',
  ...overrides,
});

export const request = (p: LimitPolicy, now: number, o: Partial<AdmitRequest> = {}): AdmitRequest => ({
  customerId: 'cus_1',
  environment: 'live',
  keyId: 'key_1',
  policy: p,
  now,
  ...o,
});

export const uniquePrefix = (name: string) => `test:limits:${name}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;

/** Deletes every key under `prefix` (tests share the Redis on 6379). */
export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new IORedis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Runs `count` tasks with at most `parallel` in flight. */
export async function runParallel(count: number, parallel: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
