/**
 * The key migration of issue 27 (CHANGELOG): the month counter moved from
 * `<prefix>:month:<c>:<env>:<month>` to `<prefix>:{<c>}:month:<env>:<month>`. The new counter is
 * seeded from durable usage or from the old counter, whichever holds more, so calls the old
 * instances counted but had not flushed yet still count toward the quota.
 */
import { Redis as IORedis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAccounts, type MemoryAccounts } from '../../packages/core/src/memory/accounts.js';
import { createRedisLimiter } from '../../packages/upstash/src/index.js';
import { createTcpRedis, type TcpRedis } from '../../packages/upstash/src/tcp.js';
import { deleteKeys, policy, request, SHARED_REDIS_URL, uniquePrefix } from './fixtures.js';

const JAN_15 = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('the month counter of the layout before hash tags (issue 27)', () => {
  let tcp: TcpRedis;
  let redis: IORedis;
  let accounts: MemoryAccounts;
  const prefixes: string[] = [];

  beforeAll(async () => {
    tcp = createTcpRedis(SHARED_REDIS_URL);
    await tcp.ready();
    redis = new IORedis(SHARED_REDIS_URL);
    accounts = createMemoryAccounts();
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(SHARED_REDIS_URL, prefix);
    redis.disconnect();
    await tcp.close();
  });

  it('seeds the new counter from the old one when it holds more than durable usage, and from durable usage otherwise', async () => {
    const prefix = uniquePrefix('migration');
    prefixes.push(prefix);
    const limiter = createRedisLimiter({ redis: tcp.commands, accounts, prefix, timeoutMs: 5_000 });
    // cus_old: 500 in the old counter, 480 flushed; cus_flushed: 300 in the old counter, 320 durable.
    await redis.hset(`${prefix}:month:cus_old:live:2026-01`, 'n', '500', 'g', 'gold');
    await accounts.addUsage('cus_old', 'live', '2026-01', 480);
    await redis.hset(`${prefix}:month:cus_flushed:live:2026-01`, 'n', '300', 'g', 'gold');
    await accounts.addUsage('cus_flushed', 'live', '2026-01', 320);
    const p = policy();
    expect((await limiter.admit(request(p, JAN_15, { customerId: 'cus_old', keyId: 'key_old' }))).monthCount).toBe(501);
    expect((await limiter.admit(request(p, JAN_15, { customerId: 'cus_flushed', keyId: 'key_flushed' }))).monthCount).toBe(321);
    // A customer with no old counter starts from durable usage alone.
    expect((await limiter.admit(request(p, JAN_15, { customerId: 'cus_new', keyId: 'key_new' }))).monthCount).toBe(1);
    expect(await redis.hget(limiter.keys.month('cus_old', 'live', '2026-01'), 'n')).toBe('501');
    expect(limiter.keys.month('cus_old', 'live', '2026-01')).toBe(`${prefix}:{cus_old}:month:live:2026-01`);
    await limiter.close?.();
  });
});
