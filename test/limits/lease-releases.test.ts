/**
 * Concurrency-lease releases on the Redis on 6379, over both transports (issue 14: one Redis
 * command per request, not two). A release made in a turn rides on the next admit of its key in
 * that turn, or leaves with every other release of the turn as one ZREM per key; either way a
 * second instance finds the slot free once the release has settled.
 */
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAccounts } from '../../packages/core/src/memory/accounts.js';
import { createRedisLimiter, fromUpstash, isLimiterCommands, type LimiterCommands, type RedisLimiter } from '../../packages/upstash/src/index.js';
import { deleteKeys, policy, request, SHARED_REDIS_URL, uniquePrefix } from './fixtures.js';
import { createRedisProcess } from './redis-process.js';
import { openTransport, TRANSPORTS, type Transport } from './transports.js';

const JAN_15 = Date.UTC(2026, 0, 15, 12, 0, 0);

/** The transport's commands, counting what the limiter sends by name. */
function counted(transport: Transport): { commands: LimiterCommands; sent: Record<string, number>; zremMembers: string[][] } {
  const inner = isLimiterCommands(transport.commands) ? transport.commands : fromUpstash(transport.commands);
  const sent: Record<string, number> = {};
  const zremMembers: string[][] = [];
  const count = <T>(name: string, send: () => T): T => {
    sent[name] = (sent[name] ?? 0) + 1;
    return send();
  };
  return {
    sent,
    zremMembers,
    commands: {
      evalScript: (script, keys, args) => count('evalScript', () => inner.evalScript(script, keys, args)),
      zrem: (key, ...members) => {
        zremMembers.push(members);
        return count('zrem', () => inner.zrem(key, ...members));
      },
      hget: (key, field) => count('hget', () => inner.hget(key, field)),
      set: (key, value) => count('set', () => inner.set(key, value)),
    },
  };
}

describe.each(TRANSPORTS)('lease releases over %s', (transportName) => {
  let transports: Transport[] = [];
  const prefixes: string[] = [];
  const accounts = createMemoryAccounts();
  const redis = new IORedis(SHARED_REDIS_URL);

  function pair(): { a: RedisLimiter; b: RedisLimiter; sentByA: Record<string, number>; zremByA: string[][] } {
    const prefix = uniquePrefix(`lease-${transportName}`);
    prefixes.push(prefix);
    const first = counted(transports[0] as Transport);
    const a = createRedisLimiter({ redis: first.commands, accounts, prefix, timeoutMs: 5_000 });
    const b = createRedisLimiter({ redis: (transports[1] as Transport).commands, accounts, prefix, timeoutMs: 5_000 });
    return { a, b, sentByA: first.sent, zremByA: first.zremMembers };
  }

  beforeAll(async () => {
    transports = [await openTransport(transportName, SHARED_REDIS_URL), await openTransport(transportName, SHARED_REDIS_URL)];
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(SHARED_REDIS_URL, prefix);
    for (const t of transports) await t.close();
    redis.disconnect();
  });

  it('sends no command for a release followed in the same turn by an admit of its key: the admit frees the slot first', async () => {
    const { a, b, sentByA } = pair();
    const p = policy({ concurrency: 1 });
    const held = await a.admit(request(p, JAN_15, { keyId: 'key_fold' }));
    expect(held.allowed).toBe(true);
    expect((await b.admit(request(p, JAN_15, { keyId: 'key_fold' }))).reason).toBe('concurrency');

    const before = { ...sentByA };
    const released = held.release();
    const next = await a.admit(request(p, JAN_15 + 1, { keyId: 'key_fold' }));
    await released;
    // The only slot was held until the admit's own script removed the released lease.
    expect(next.allowed).toBe(true);
    expect(sentByA.zrem ?? 0).toBe(before.zrem ?? 0);
    expect(sentByA.evalScript).toBe((before.evalScript ?? 0) + 1);
    // The other instance sees the slot taken by `next`, then free once it is released.
    expect((await b.admit(request(p, JAN_15 + 2, { keyId: 'key_fold' }))).reason).toBe('concurrency');
    await next.release();
    expect((await b.admit(request(p, JAN_15 + 3, { keyId: 'key_fold' }))).allowed).toBe(true);
  });

  it('sends the releases of one turn as one ZREM per key, and the slots are free on the other instance once they settle', async () => {
    const { a, b, sentByA, zremByA } = pair();
    const p = policy({ concurrency: 5 });
    const held = await Promise.all(Array.from({ length: 5 }, (_, i) => a.admit(request(p, JAN_15 + i, { keyId: 'key_batch' }))));
    const other = await a.admit(request(p, JAN_15, { keyId: 'key_batch_other' }));
    expect(held.every((d) => d.allowed) && other.allowed).toBe(true);
    expect((await b.admit(request(p, JAN_15 + 5, { keyId: 'key_batch' }))).reason).toBe('concurrency');
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_batch'))).toBe(5);

    const before = sentByA.zrem ?? 0;
    await Promise.all([...held, other].map((d) => d.release()));
    expect((sentByA.zrem ?? 0) - before).toBe(2);
    expect(
      zremByA
        .slice(-2)
        .map((members) => members.length)
        .sort(),
    ).toEqual([1, 5]);
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_batch'))).toBe(0);
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_batch_other'))).toBe(0);
    const afterwards = await Promise.all(Array.from({ length: 5 }, (_, i) => b.admit(request(p, JAN_15 + 10 + i, { keyId: 'key_batch' }))));
    expect(afterwards.map((d) => d.allowed)).toEqual([true, true, true, true, true]);
  });

  it('sends a queued release again when the admit that carried it failed', async () => {
    const prefix = uniquePrefix(`lease-fail-${transportName}`);
    prefixes.push(prefix);
    const inner = counted(transports[0] as Transport);
    let failNextScript = false;
    const commands: LimiterCommands = {
      ...inner.commands,
      evalScript: (script, keys, args) => {
        if (failNextScript) {
          failNextScript = false;
          return Promise.reject(new Error('connection reset'));
        }
        return inner.commands.evalScript(script, keys, args);
      },
    };
    const a = createRedisLimiter({ redis: commands, accounts, prefix, timeoutMs: 5_000 });
    const p = policy({ concurrency: 1 });
    const held = await a.admit(request(p, JAN_15, { keyId: 'key_retry' }));
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_retry'))).toBe(1);
    const released = held.release();
    failNextScript = true;
    await expect(a.admit(request(p, JAN_15 + 1, { keyId: 'key_retry' }))).rejects.toThrow('connection reset');
    await released;
    expect(inner.sent.zrem).toBe(1);
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_retry'))).toBe(0);
    await a.close?.();
  });

  it('close() sends the releases still queued', async () => {
    const { a } = pair();
    const held = await a.admit(request(policy(), JAN_15, { keyId: 'key_close' }));
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_close'))).toBe(1);
    void held.release();
    await a.close?.();
    expect(await redis.zcard(a.keys.leases('cus_1', 'key_close'))).toBe(0);
  });
});

describe.each(TRANSPORTS)('lease releases while Redis is killed, over %s', (transportName) => {
  it('a release whose admit and own ZREM both fail settles, is logged, and leaves no rejection; limits apply once Redis is back', async () => {
    const server = await createRedisProcess();
    await server.start();
    const transport = await openTransport(transportName, server.url);
    const logged: Array<Record<string, unknown>> = [];
    const limiter = createRedisLimiter({
      redis: transport.commands,
      accounts: createMemoryAccounts(),
      prefix: 'lease-kill',
      timeoutMs: 200,
      backgroundTimeoutMs: 500,
      logger: { log: (record) => logged.push(record as Record<string, unknown>) },
    });
    try {
      const p = policy({ concurrency: 1 });
      const held = await limiter.admit(request(p, JAN_15, { keyId: 'key_kill' }));
      expect(held.allowed).toBe(true);
      await server.kill();
      // Queued, taken by the next admit of its key, whose script fails: then sent on its own, which fails too.
      const released = held.release();
      await expect(limiter.admit(request(p, JAN_15 + 1, { keyId: 'key_kill' }))).rejects.toThrow();
      await expect(released).resolves.toBeUndefined();
      expect(logged.filter((record) => record.kind === 'ratelimit.release_failed')).toHaveLength(1);

      await server.start();
      for (let attempt = 0; attempt < 100; attempt++) {
        const back = await limiter.admit(request(p, JAN_15 + 2, { keyId: 'key_kill' })).catch(() => null);
        if (back) {
          // Redis came back empty: the lease is gone with it, so the slot is free.
          expect(back.allowed).toBe(true);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the limiter never reached the restarted Redis');
    } finally {
      await limiter.close?.().catch(() => undefined);
      await transport.close();
      await server.kill();
    }
  }, 30_000);
});
