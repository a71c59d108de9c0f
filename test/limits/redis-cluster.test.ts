/**
 * The limiter on a real three-master Redis Cluster (issue 27): REDIS_URL naming any node is
 * enough. Before, every admit failed CROSSSLOT and everything was served unlimited. Here the
 * limits are exact, usage reaches PostgreSQL once per call served, nothing fails open, and the
 * customers' keys are spread over the masters while each script's keys share one slot.
 */
import { type Logger, type LogRecord, monthOf } from '@catalogue/core';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { createPostgresAccounts, migrate } from '@catalogue/postgres';
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisLimiter, type RedisLimiter } from '../../packages/upstash/src/index.js';
import { keySlot } from '../../packages/upstash/src/slots.js';
import { createRedisClient, type RedisClient } from '../../packages/upstash/src/tcp.js';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { policy, request, uniquePrefix } from './fixtures.js';
import { createRedisCluster, type RedisCluster } from './redis-cluster-process.js';

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const MONTH = monthOf(NOW);
const CUSTOMERS = ['cus_burst', 'cus_quota', 'cus_conc', 'cus_epoch', 'cus_third', 'cus_svc'];

/** A logger that keeps what the limiter and the service log (ratelimit.fail_open among them). */
function recordingLogger(): Logger & { kinds(prefix: string): string[] } {
  const records: LogRecord[] = [];
  return {
    log: (record) => void records.push(record),
    kinds: (prefix) => records.map((r) => String(r.kind)).filter((kind) => kind.startsWith(prefix)),
  };
}

/** `n` admits, `parallel` at a time, each released at once; the allowed count and how many threw (a fail-open). */
async function admitMany(limiter: RedisLimiter, n: number, make: (i: number) => Parameters<RedisLimiter['admit']>[0]) {
  let allowed = 0;
  let threw = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      try {
        const decision = await limiter.admit(make(i));
        if (decision.allowed) allowed++;
        await decision.release();
      } catch {
        threw++;
      }
    }),
  );
  return { allowed, threw };
}

describe('the limiter on a three-master Redis Cluster (issue 27)', () => {
  let cluster: RedisCluster;
  let db: TestDatabase;
  let accounts: ReturnType<typeof createPostgresAccounts>;
  const clients: RedisClient[] = [];
  const durable = (customerId: string) => accounts.getUsage(customerId, 'live', MONTH);
  const client = async (url: string) => {
    const made = await createRedisClient({ url });
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    [cluster, db] = await Promise.all([createRedisCluster(), createPostgresDatabase({ max: 4 })]);
    await migrate(db.sql);
    accounts = createPostgresAccounts(db.sql);
    for (const [i, id] of CUSTOMERS.entries()) {
      await accounts.createCustomerWithKey(
        { id, email: `${id}@example.com`, name: null, tier: 'self_serve_49', created_at: new Date(NOW) },
        { id: `key_${id}`, hash: String(i).repeat(64), display_prefix: `ck_live_${i}`, environment: 'live', created_at: new Date(NOW) },
      );
    }
  }, 30_000);
  afterAll(async () => {
    for (const made of clients) await made.close();
    await cluster?.stop();
    await db?.drop();
  });

  it('with REDIS_URL naming the first node: exact burst, quota, public and concurrency limits, usage flushed once per call, no fail-open', async () => {
    const logger = recordingLogger();
    const prefix = uniquePrefix('cluster');
    const [first, second] = [await client(cluster.urls[0] as string), await client(cluster.urls[1] as string)];
    expect([first.mode(), second.mode()]).toEqual(['cluster', 'cluster']);
    const a = createRedisLimiter({ redis: first.commands, accounts, logger, prefix, timeoutMs: 5_000 });
    const b = createRedisLimiter({ redis: second.commands, accounts, logger, prefix, timeoutMs: 5_000 });
    const on = (i: number) => (i % 2 ? a : b);

    // Burst 20: 20 of 60 served, across both instances.
    const burst = policy({ burstPerMinute: 20, concurrency: 100 });
    const burstRun = await admitMany(a, 30, (i) => request(burst, NOW + i, { customerId: 'cus_burst', keyId: 'key_cus_burst' }));
    const burstRunB = await admitMany(b, 30, (i) => request(burst, NOW + 30 + i, { customerId: 'cus_burst', keyId: 'key_cus_burst' }));
    expect(burstRun.allowed + burstRunB.allowed).toBe(20);

    // Quota 1,000 with 990 already durable: the counter is seeded from PostgreSQL, 10 of 30 served.
    await accounts.addUsage('cus_quota', 'live', MONTH, 990);
    const quota = policy({ burstPerMinute: 10_000, concurrency: 100, quotaPerMonth: 1_000 });
    const quotaRun = await admitMany(a, 30, (i) => request(quota, NOW + i, { customerId: 'cus_quota', keyId: 'key_cus_quota' }));
    expect(quotaRun.allowed).toBe(10);

    // The public per-IP window: 60 of 80 served.
    let publicServed = 0;
    for (let i = 0; i < 80; i++) if ((await on(i).admitPublic('203.0.113.7', 60, NOW + i)).allowed) publicServed++;
    expect(publicServed).toBe(60);

    // Concurrency 3 across both instances: never more than 3 held at once, and some refused.
    const conc = policy({ burstPerMinute: 10_000, concurrency: 3 });
    let inFlight = 0;
    let peak = 0;
    let concServed = 0;
    let concRefused = 0;
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const decision = await on(i).admit(request(conc, NOW + i, { customerId: 'cus_conc', keyId: 'key_cus_conc' }));
        if (!decision.allowed) {
          expect(decision.reason).toBe('concurrency');
          concRefused++;
          return;
        }
        concServed++;
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        await decision.release();
      }),
    );
    expect(peak).toBeLessThanOrEqual(3);
    expect(concRefused).toBeGreaterThan(0);

    // The minute flush: durable usage equals the calls served (runJobs of both instances).
    await a.runJobs(NOW + 60_000);
    await b.runJobs(NOW + 60_000);
    expect(await durable('cus_burst')).toBe(20);
    expect(await durable('cus_quota')).toBe(1_000);
    expect(await durable('cus_conc')).toBe(concServed);
    expect(burstRun.threw + burstRunB.threw + quotaRun.threw).toBe(0);
    expect(logger.kinds('ratelimit.')).toEqual([]);

    // Each customer's script keys share one slot; the customers are spread over more than one master.
    for (const customerId of ['cus_burst', 'cus_quota', 'cus_conc']) {
      const slot = keySlot(a.keys.burst(customerId, 'live'));
      expect(keySlot(a.keys.month(customerId, 'live', MONTH))).toBe(slot);
      expect(keySlot(a.keys.leases(customerId, `key_${customerId}`))).toBe(slot);
      expect(keySlot(a.keys.callBits(slot, '0123456789abcdef', 0))).toBe(slot);
      expect(keySlot(a.keys.authEpoch(slot))).toBe(slot);
    }
    const holders = new Set(await Promise.all(CUSTOMERS.map((c) => cluster.nodeOf(a.keys.burst(c, 'live')))));
    expect(holders.size).toBeGreaterThan(1);
    // And Redis agrees with keySlot, and the counters sit on the master that holds their slot.
    const master = new IORedis(await cluster.nodeOf(a.keys.month('cus_quota', 'live', MONTH)));
    try {
      expect(Number(await master.cluster('KEYSLOT', a.keys.month('cus_quota', 'live', MONTH)))).toBe(keySlot(a.keys.month('cus_quota', 'live', MONTH)));
      expect(await master.hget(a.keys.month('cus_quota', 'live', MONTH), 'n')).toBe('1000');
    } finally {
      master.disconnect();
    }
    await a.close?.();
    await b.close?.();
  }, 40_000);

  it('with REDIS_URL naming the third node: limits hold and the accounts epoch proves key lookups in every slot', async () => {
    const prefix = uniquePrefix('cluster-third');
    const third = await client(cluster.urls[2] as string);
    expect(third.mode()).toBe('cluster');
    const limiter = createRedisLimiter({ redis: third.commands, accounts, prefix, timeoutMs: 5_000 });
    const burst = policy({ burstPerMinute: 20, concurrency: 100 });
    const run = await admitMany(limiter, 60, (i) => request(burst, NOW + i, { customerId: 'cus_third', keyId: 'key_cus_third' }));
    expect(run).toEqual({ allowed: 20, threw: 0 });

    // The epoch answered in two customers' slots is one and the same (the key cache compares it
    // across customers), an admit under it is counted, and after a bump both answer stale.
    const p = policy({ burstPerMinute: 1_000, concurrency: 100 });
    expect(limiter.keys.slotOf('cus_epoch')).not.toBe(limiter.keys.slotOf('cus_third'));
    // Without any bump yet (a fresh prefix), each slot's admit makes its own epoch ('c…'); the
    // limiter then bumps once by itself, so the slots agree again.
    const fresh = createRedisLimiter({ redis: third.commands, accounts, prefix: uniquePrefix('cluster-epoch'), timeoutMs: 5_000 });
    const epochs = async () =>
      Promise.all(
        ['cus_epoch', 'cus_third'].map(async (customerId) => {
          const decision = await fresh.admit(request(p, NOW, { customerId, keyId: `key_${customerId}` }));
          await decision.release();
          return decision.authEpoch as string;
        }),
      );
    const made = await epochs();
    // Which admit runs before the bump lands in its slot is a race: at least one made its own.
    expect(made.some((e) => e.startsWith('c'))).toBe(true);
    let agreed = made;
    for (let attempt = 0; attempt < 100 && !(agreed[0] === agreed[1] && agreed[0]?.startsWith('e')); attempt++) {
      await new Promise((r) => setTimeout(r, 50));
      agreed = await epochs();
    }
    expect(agreed[0]).toBe(agreed[1]);
    expect(agreed[0]?.startsWith('e')).toBe(true);
    await fresh.close?.();
    await limiter.bumpAuthEpoch?.();
    const e1 = (await limiter.admit(request(p, NOW, { customerId: 'cus_epoch', keyId: 'key_cus_epoch' }))).authEpoch as string;
    const e1b = (await limiter.admit(request(p, NOW, { customerId: 'cus_third', keyId: 'key_cus_third' }))).authEpoch;
    expect(e1b).toBe(e1);
    expect((await limiter.admit(request(p, NOW + 1, { customerId: 'cus_epoch', keyId: 'key_cus_epoch', authEpoch: e1 }))).allowed).toBe(true);
    await limiter.bumpAuthEpoch?.();
    const stale = await limiter.admit(request(p, NOW + 2, { customerId: 'cus_epoch', keyId: 'key_cus_epoch', authEpoch: e1 }));
    const staleToo = await limiter.admit(request(p, NOW + 2, { customerId: 'cus_third', keyId: 'key_cus_third', authEpoch: e1 }));
    expect([stale.stale, staleToo.stale]).toEqual([true, true]);
    expect(stale.authEpoch).not.toBe(e1);
    expect(staleToo.authEpoch).toBe(stale.authEpoch);
    // Nothing was counted for the stale answers: cus_epoch has its admitted calls only.
    const before = await limiter.monthCount('cus_epoch', 'live', MONTH);
    expect((await limiter.admit(request(p, NOW + 3, { customerId: 'cus_epoch', keyId: 'key_cus_epoch', authEpoch: e1 }))).stale).toBe(true);
    expect(await limiter.monthCount('cus_epoch', 'live', MONTH)).toBe(before);
    await limiter.close?.();
  }, 40_000);

  it('createServiceFromEnv with REDIS_URL of the second node: the cluster is detected, /readyz is ready, counted calls are limited, none fails open', async () => {
    const logger = recordingLogger();
    const hosted = await createServiceFromEnv(
      {
        DATABASE_URL: db.url,
        REDIS_URL: cluster.urls[1],
        LOG_LEVEL: 'error',
        SECRET_KEY: '3c'.repeat(32),
        ADMIN_TOKEN: 'cluster-admin-token-0123456789abcdef',
      },
      { logger, redisPrefix: uniquePrefix('cluster-svc') },
    );
    try {
      expect(hosted.limiter).toBe('redis (tcp, cluster)');
      expect((await hosted.service.fetch(new Request('http://cluster.test/readyz'))).status).toBe(200);
      const issued = await hosted.service.fetch(
        new Request('http://cluster.test/api/v1/admin/keys', {
          method: 'POST',
          headers: { authorization: 'Bearer cluster-admin-token-0123456789abcdef', 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'svc@example.com' }),
        }),
      );
      expect(issued.status).toBe(201);
      const { key } = (await issued.json()) as { key: string };
      const statuses: number[] = [];
      const limits: Array<string | null> = [];
      for (let i = 0; i < 5; i++) {
        const answer = await hosted.service.fetch(new Request('http://cluster.test/api/v1/dossier/manifest', { headers: { 'x-api-key': key } }));
        statuses.push(answer.status);
        limits.push(answer.headers.get('x-ratelimit-remaining'));
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      // Limit headers on every answer, counting down: the limiter answered (a fail-open carries none).
      expect(limits.map(Number)).toEqual([...limits.map(Number)].sort((x, y) => y - x));
      expect(limits.every((l) => l !== null)).toBe(true);
      expect(logger.kinds('ratelimit.')).toEqual([]);

      // Last (it takes a master away for good): /readyz names the limit store once a master is gone.
      await cluster.killNode((cluster.nodes[2] as { port: number }).port);
      let status = 200;
      for (let attempt = 0; attempt < 100 && status === 200; attempt++) {
        const answer = await hosted.service.fetch(new Request('http://cluster.test/readyz'));
        status = answer.status;
        if (status === 503) expect(JSON.stringify(await answer.json())).toContain('limit store unreachable');
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(503);
    } finally {
      await hosted.close();
    }
  }, 40_000);
});
