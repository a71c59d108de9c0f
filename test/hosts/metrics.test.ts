/**
 * GET /metrics as every host serves it (host-kit's prom-client registry; docs/decisions.md §8,
 * "Access log and metrics"): behind ADMIN_TOKEN, absent without one; requests by route pattern
 * and status, latency histograms, limiter fail-opens (Redis on a port where nothing listens),
 * and on real PostgreSQL the pool's in-flight calls and the outbox depth.
 */
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { FIXTURE_ADMIN_TOKEN } from './fixture.js';
import { demoMaster } from './setup.js';

const ADMIN = { authorization: `Bearer ${FIXTURE_ADMIN_TOKEN}` };
/** i16a's port range (56160-56169): nothing listens on it. */
const DEAD_REDIS = 'redis://127.0.0.1:56162';

const get = (hosted: HostedService, path: string, headers: Record<string, string> = {}) =>
  hosted.service.fetch(new Request(`http://metrics.test${path}`, { headers }), { clientIp: '203.0.113.9' });

async function issueKey(hosted: HostedService): Promise<string> {
  const res = await hosted.service.fetch(
    new Request('http://metrics.test/api/v1/admin/keys', {
      method: 'POST',
      headers: { ...ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'metrics@example.com', tier: 'self_serve_299' }),
    }),
  );
  return ((await res.json()) as { key: string }).key;
}

describe('GET /metrics', () => {
  it('is an operator route: 401 without the admin token, 404 on a deployment without one', async () => {
    const hosted = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN, LOG_LEVEL: 'error' });
    const unhosted = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', LOG_LEVEL: 'error' });
    try {
      expect((await get(hosted, '/metrics')).status).toBe(401);
      expect((await get(hosted, '/metrics', { authorization: 'Bearer wrong' })).status).toBe(401);
      expect((await get(unhosted, '/metrics')).status).toBe(404);
      // Not part of the API's documents.
      const doc = await (await get(hosted, '/api/v1/openapi.json')).json();
      expect(Object.keys(doc.paths)).not.toContain('/metrics');
    } finally {
      await hosted.close();
      await unhosted.close();
    }
  }, 60_000);

  it('counts requests by route pattern and status, with latency histograms and fail-opens, never a raw path', async () => {
    const hosted = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN, LOG_LEVEL: 'error', REDIS_URL: DEAD_REDIS });
    try {
      const key = await issueKey(hosted);
      for (let i = 0; i < 3; i++) expect((await get(hosted, `/api/v1/masters/${demoMaster()}`, { 'x-api-key': key })).status).toBe(200);
      await get(hosted, '/api/v1/masters/999999999', { 'x-api-key': key });
      await get(hosted, '/no/such/path/12345');
      const res = await get(hosted, '/metrics', ADMIN);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(text).toContain('catalogue_http_requests_total{route="/api/v1/masters/:id",method="GET",status="200"} 3');
      expect(text).toContain('catalogue_http_requests_total{route="/api/v1/masters/:id",method="GET",status="404"} 1');
      expect(text).toContain('catalogue_http_requests_total{route="unmatched",method="GET",status="404"} 1');
      expect(text).toMatch(/catalogue_http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/v1\/masters\/:id",method="GET"\} \d+/);
      expect(text).toContain('catalogue_http_request_duration_seconds_count{route="/api/v1/masters/:id",method="GET"} 4');
      // Redis is away: every keyed call (the admin route has no limit) went through failing open.
      expect(text).toContain('catalogue_ratelimit_fail_open_total{scope="key"} 4');
      expect(text).not.toContain('12345');
      expect(text).not.toContain(key);
    } finally {
      await hosted.close();
    }
  }, 60_000);

  describe('on PostgreSQL', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createPostgresDatabase();
    }, 30_000);
    afterAll(async () => {
      await db?.drop();
    });

    it('reads the pool in-flight count and the outbox depth at scrape', async () => {
      const hosted = await createServiceFromEnv(
        { DATABASE_URL: db.url, ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN, LOG_LEVEL: 'error', SECRET_KEY: '3c'.repeat(32) },
        { migrate: true },
      );
      try {
        const text = await (await get(hosted, '/metrics', ADMIN)).text();
        expect(text).toContain('catalogue_db_in_flight{pool="primary"} 0');
        expect(text).toContain('catalogue_mail_outbox_depth{state="pending"} 0');
        expect(text).toContain('catalogue_mail_outbox_depth{state="dead"} 0');
      } finally {
        await hosted.close();
      }
    }, 60_000);
  });
});
