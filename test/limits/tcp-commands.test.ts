/**
 * The limiter's TCP commands (tcp-commands.ts, tcp-sender.ts): replies as text, EVAL when Redis
 * lost the script, and the commands of one event-loop turn in one write to the socket.
 */
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTcpRedis, type TcpRedis } from '../../packages/upstash/src/tcp.js';
import { deleteKeys, SHARED_REDIS_URL, uniquePrefix } from './fixtures.js';

describe('TCP limiter commands', () => {
  let tcp: TcpRedis;
  const prefix = uniquePrefix('tcp-commands');
  beforeAll(async () => {
    tcp = createTcpRedis(SHARED_REDIS_URL);
    await tcp.ready();
  });
  afterAll(async () => {
    await deleteKeys(SHARED_REDIS_URL, prefix);
    await tcp.close();
  });

  /** Writes that reach the socket's handle (one per _write, one per _writev of corked writes). */
  function countWrites(): { count(): number; stop(): void } {
    const socket = tcp.connection.stream as Socket;
    const one = vi.spyOn(socket, '_write');
    const many = vi.spyOn(socket, '_writev');
    return {
      count: () => one.mock.calls.length + many.mock.calls.length,
      stop: () => {
        one.mockRestore();
        many.mockRestore();
      },
    };
  }

  it('sends a turn of EVALSHAs in one write, and their EVALs in one more when Redis lost the script', async () => {
    const script = `return ARGV[1] .. '/' .. KEYS[1] -- ${prefix}`;
    await tcp.connection.script('FLUSH');
    const writes = countWrites();
    try {
      const calls = Array.from({ length: 20 }, (_, i) => tcp.commands.evalScript<string>(script, [`${prefix}:k${i}`], [`Björk ${i}`]));
      expect(await Promise.all(calls)).toEqual(Array.from({ length: 20 }, (_, i) => `Björk ${i}/${prefix}:k${i}`));
      // 20 × EVALSHA → NOSCRIPT, then 20 × EVAL (which loads the script).
      expect(writes.count()).toBe(2);
      const again = await Promise.all([1, 2, 3].map((i) => tcp.commands.evalScript<string>(script, [`${prefix}:again`], [String(i)])));
      expect(again).toEqual([`1/${prefix}:again`, `2/${prefix}:again`, `3/${prefix}:again`]);
      expect(writes.count()).toBe(3);
    } finally {
      writes.stop();
    }
  });

  it('answers SET, HGET and ZREM as ioredis does, and passes error replies on', async () => {
    const { commands, connection } = tcp;
    expect(await commands.set(`${prefix}:s`, 'Sigur Rós')).toBe('OK');
    expect(await connection.get(`${prefix}:s`)).toBe('Sigur Rós');
    await connection.hset(`${prefix}:h`, 'n', '41');
    expect(await commands.hget(`${prefix}:h`, 'n')).toBe('41');
    expect(await commands.hget(`${prefix}:h`, 'missing')).toBeNull();
    await connection.zadd(`${prefix}:z`, 1, 'a', 2, 'b', 3, 'c');
    expect(await commands.zrem(`${prefix}:z`, 'a', 'c', 'x')).toBe(2);
    await expect(commands.evalScript('return redis.call("INCR", KEYS[1])', [`${prefix}:s`], [])).rejects.toThrow(/not an integer/);
  });
});
