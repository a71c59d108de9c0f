/**
 * @catalogue/host-kit's createServiceFromEnv building the ports the configuration names —
 * memory by default, PostgreSQL with DATABASE_URL, the Redis limiter with REDIS_URL. The pure
 * pieces (readEnv, client IP, body cap, native hasher) have their specs beside them.
 */
import { createServiceFromEnv } from '@catalogue/host-kit';
import { migrate } from '@catalogue/postgres';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../conformance/databases.js';

const ADMIN = 'host-kit-admin-token-0123456789abcdef';

async function issueAndRead(service: { fetch(r: Request): Promise<Response> }): Promise<number> {
  const issued = await service.fetch(
    new Request('http://h/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kit@example.com', tier: 'self_serve_49', environment: 'test' }),
    }),
  );
  expect(issued.status).toBe(201);
  const { key } = (await issued.json()) as { key: string };
  return (await service.fetch(new Request('http://h/api/v1/masters/999999999', { headers: { 'x-api-key': key } }))).status;
}

describe('createServiceFromEnv', () => {
  it('runs on memory ports by default', async () => {
    const hosted = await createServiceFromEnv({ ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'error' }, { catalogueData: undefined });
    expect(hosted.storage).toMatch(/in-memory/);
    expect(hosted.limiter).toBe('in-process');
    expect(await issueAndRead(hosted.service)).toBe(404);
    await hosted.close();
  }, 30_000);

  it('uses PostgreSQL with DATABASE_URL and the Redis limiter with REDIS_URL', async () => {
    const db = await createPostgresDatabase();
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const prefix = `test:host-kit:${Math.random().toString(36).slice(2, 10)}`;
    try {
      await migrate(db.sql);
      const hosted = await createServiceFromEnv(
        { DATABASE_URL: db.url, DATABASE_POOL_MAX: '2', REDIS_URL: redisUrl, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'error' },
        { redisPrefix: prefix },
      );
      try {
        expect(hosted.storage).toMatch(/^PostgreSQL /);
        expect(hosted.limiter).toBe('redis (tcp)');
        expect(await issueAndRead(hosted.service)).toBe(404);
        // The key went to PostgreSQL, not to a memory store.
        const [row] = await db.sql<Array<{ n: number }>>`select count(*)::int as n from api_keys`;
        expect(row?.n).toBe(1);
        const redis = new Redis(redisUrl);
        try {
          // The limiter counted the call in Redis under this prefix; clean up after it.
          const keys = await redis.keys(`${prefix}:*`);
          expect(keys.length).toBeGreaterThan(0);
          await redis.del(...keys);
        } finally {
          redis.disconnect();
        }
      } finally {
        await hosted.close();
      }
    } finally {
      await db.drop();
    }
  }, 60_000);
});
