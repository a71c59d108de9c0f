/**
 * One Redis by URL → an @upstash/redis client on plain TCP, so both transports share one code
 * path. Hosts build the limiter's Redis with createRedisClient (redis-client.ts) instead, which
 * also takes a Redis Cluster or Sentinel.
 */
import { Redis } from '@upstash/redis';
import { Redis as IORedis, type RedisOptions } from 'ioredis';
import type { LimiterCommands } from './commands.js';
import { tcpCommands } from './tcp-commands.js';
import { createTcpRequester } from './tcp-requester.js';

export interface TcpRedis {
  /** An @upstash/redis client on this connection (for code that wants Upstash's API). */
  redis: Redis;
  /** The limiter's commands straight on ioredis: what createRedisLimiter should get on TCP. */
  commands: LimiterCommands;
  /** The underlying ioredis connection. */
  connection: IORedis;
  /** Resolves once connected (commands fail fast rather than queue while disconnected). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createTcpRedis(url: string, options: RedisOptions = {}): TcpRedis {
  const connection = new IORedis(url, {
    // Fail fast while disconnected: a queued command would block the request past the
    // fail-open timeout and could land much later. Never resend a command after a reconnect.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    // The limiter's commands batch a turn's writes themselves (tcp-sender.ts), more cheaply
    // than auto-pipelining, which would also hold back the other commands to the end of the turn.
    enableAutoPipelining: false,
    ...options,
  });
  // Errors surface on the commands; the connection retries in the background by itself.
  connection.on('error', () => {});
  const redis = new Redis(createTcpRequester(connection));
  return {
    redis,
    commands: tcpCommands(connection),
    connection,
    ready: () =>
      connection.status === 'ready'
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            connection.once('ready', () => resolve());
            connection.once('end', () => reject(new Error('redis connection ended')));
          }),
    close: async () => {
      connection.disconnect();
    },
  };
}
