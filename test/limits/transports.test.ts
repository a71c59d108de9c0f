/** Both transports answer @upstash/redis alike: one command, /pipeline, /multi-exec, error replies. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from './fixtures.js';
import { openTransport, TRANSPORTS, type Transport } from './transports.js';

describe.each(TRANSPORTS)('@upstash/redis over %s', (transportName) => {
  let transport: Transport;
  const prefix = uniquePrefix(`transport-${transportName}`);

  beforeAll(async () => {
    transport = await openTransport(transportName, SHARED_REDIS_URL);
  });
  afterAll(async () => {
    await deleteKeys(SHARED_REDIS_URL, prefix);
    await transport.close();
  });

  it('runs single commands, keeping strings (also non-ASCII) and numbers intact', async () => {
    const { redis } = transport;
    expect(await redis.set(`${prefix}:s`, 'Björk — Homogenic')).toBe('OK');
    expect(await redis.get(`${prefix}:s`)).toBe('Björk — Homogenic');
    expect(await redis.incrby(`${prefix}:n`, 41)).toBe(41);
    expect(await redis.hset(`${prefix}:h`, { a: 1, b: 'x' })).toBe(2);
    expect(await redis.hgetall(`${prefix}:h`)).toEqual({ a: 1, b: 'x' });
    expect(await redis.get(`${prefix}:missing`)).toBeNull();
  });

  it('runs pipelines and transactions, with per-command errors', async () => {
    const { redis } = transport;
    const piped = await redis.pipeline().set(`${prefix}:p`, 'v').get(`${prefix}:p`).incr(`${prefix}:p2`).exec();
    expect(piped).toEqual(['OK', 'v', 1]);
    const tx = await redis.multi().incr(`${prefix}:t`).incr(`${prefix}:t`).exec();
    expect(tx).toEqual([1, 2]);
    await expect(redis.pipeline().incr(`${prefix}:s`).exec()).rejects.toThrow(/not an integer/);
  });

  it('surfaces a Redis error reply as an error of the command', async () => {
    await expect(transport.redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/);
  });
});
