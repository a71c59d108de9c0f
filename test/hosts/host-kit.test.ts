/**
 * @catalogue/host-kit: the configuration table, and createServiceFromEnv building the ports it
 * names — memory by default, PostgreSQL with DATABASE_URL, the Redis limiter with REDIS_URL.
 */
import { createHash } from 'node:crypto';
import { pureHasher } from '@catalogue/core';
import { capRequestBody, clientIpFrom, createServiceFromEnv, nativeHasher, readEnv } from '@catalogue/host-kit';
import { migrate } from '@catalogue/postgres';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../conformance/databases.js';

const ADMIN = 'host-kit-admin-token';

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

describe('readEnv', () => {
  it('chooses storage from CATALOGUE_STORAGE and DATABASE_URL', () => {
    expect(readEnv({}).storage).toBe('memory');
    expect(readEnv({ DATABASE_URL: 'postgres://x/y' }).storage).toBe('postgres');
    expect(readEnv({ DATABASE_URL: 'postgres://x/y', CATALOGUE_STORAGE: 'memory' }).storage).toBe('memory');
    expect(() => readEnv({ CATALOGUE_STORAGE: 'postgres' })).toThrow(/needs DATABASE_URL/);
    expect(() => readEnv({ CATALOGUE_STORAGE: 'sqlite' })).toThrow(/memory or postgres/);
  });

  it('keeps the defaults of the configuration table', () => {
    const env = readEnv({ PORT: '9000' });
    expect(env).toMatchObject({
      port: 9000,
      baseUrl: 'http://localhost:9000',
      publicRateLimitPerMinute: 60,
      trustProxy: false,
      logLevel: 'info',
      dataDir: './.data',
    });
    expect(() => readEnv({ PORT: '-1' })).toThrow(/PORT/);
  });
});

describe('the shared host pieces', () => {
  it('takes the client IP from X-Forwarded-For only behind a trusted proxy', () => {
    expect(clientIpFrom('198.51.100.1, 10.0.0.1', true, '10.0.0.2')).toBe('198.51.100.1');
    expect(clientIpFrom('198.51.100.1', false, '10.0.0.2')).toBe('10.0.0.2');
    expect(clientIpFrom(null, true, undefined)).toBe('unknown');
  });

  it('counts a body without Content-Length and fails it past the cap with payload_too_large', async () => {
    const chunks = [new Uint8Array(600), new Uint8Array(600)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const capped = capRequestBody(new Request('http://h/x', { method: 'POST', body, duplex: 'half' } as RequestInit), 1000);
    expect(capped).toBeInstanceOf(Request);
    await expect((capped as Request).arrayBuffer()).rejects.toMatchObject({ status: 413, code: 'payload_too_large', body: { max_bytes: 1000 } });
    const declared = capRequestBody(new Request('http://h/x', { method: 'POST', body: 'x', headers: { 'content-length': '5000' } }), 1000);
    expect(declared).toBeInstanceOf(Response);
    expect(await (declared as Response).json()).toEqual({ error: 'payload_too_large', max_bytes: 1000 });
  });
});

describe('the native hasher the hosts inject into the gate', () => {
  const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

  it.each([
    ['one-shot crypto.hash', nativeHasher()],
    ['createHash fallback (runtimes without crypto.hash)', nativeHasher({ createHash })],
  ])("%s gives the same hashes as core's pure-JS default", (_name, hasher) => {
    expect(hasher.sha256Hex('abc')).toBe(ABC);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (text) => {
        expect(hasher.sha256Hex(text)).toBe(pureHasher.sha256Hex(text));
      }),
      { numRuns: 2000 },
    );
  });
});

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
