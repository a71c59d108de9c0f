/**
 * Beacon bounds and key checks (docs/decisions.md §7) as operators run them: PostgreSQL accounts and
 * the Redis limiter (shared by every instance), two instances of the service.
 */
import { createServiceFromEnv, type HostedService } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';

const ADMIN_TOKEN = 'beacon-admin-token-0123456789abcdef';
const BASE = 'http://catalogue.test';

describe('beacons on PostgreSQL and Redis', () => {
  let db: TestDatabase;
  let instances: HostedService[] = [];

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 1 });
    const env = { DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:6379', ADMIN_TOKEN, SECRET_KEY: '7c'.repeat(32), LOG_LEVEL: 'error' };
    const prefix = `beacons-test:${Math.random().toString(36).slice(2)}`;
    instances = [await createServiceFromEnv(env, { migrate: true, redisPrefix: prefix }), await createServiceFromEnv(env, { redisPrefix: prefix })];
  });
  afterAll(async () => {
    for (const hosted of instances) await hosted.close();
    await db?.drop();
  });

  const on = (i: number, path: string, init: RequestInit = {}) =>
    (instances[i % 2] as HostedService).service.fetch(new Request(`${BASE}${path}`, init), { clientIp: '192.0.2.1' });

  it('bounds a token across instances and refuses it once its key is revoked', async () => {
    const issued = await on(0, '/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'beacons@example.com' }),
    });
    const { key, id } = (await issued.json()) as { key: string; id: string };
    const searchOnce = async () =>
      (await (await on(0, '/api/v1/search?q=x', { headers: { 'x-api-key': key } })).json()) as { search_id: string; beacon_token: string };
    const [search, later] = [await searchOnce(), await searchOnce()];
    const beacon = (i: number, answer = search) =>
      on(i, '/api/v1/search-events/refined', {
        method: 'POST',
        headers: { authorization: `Bearer ${answer.beacon_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ search_id: answer.search_id, q: 'again' }),
      });

    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await beacon(i)).status);
    // The per-token bound is the limiter's weighted two-window estimate (an abuse guard): a
    // burst that straddles a minute boundary may get one call more than the bound.
    const accepted = statuses.filter((status) => status === 202).length;
    expect(accepted).toBeGreaterThanOrEqual(20);
    expect(accepted).toBeLessThanOrEqual(21);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - accepted);
    const stored = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM search_events WHERE search_id = ${search.search_id}`;
    expect(stored[0]?.n).toBe(accepted);

    expect((await beacon(1, later)).status).toBe(202);
    await db.sql`UPDATE api_keys SET status = 'revoked' WHERE id = ${id}`;
    const refused = await beacon(0, later);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_beacon_token' });
  });
});
