/** The two transports of @catalogue/upstash, built the same way for every suite. */
import { Redis } from '@upstash/redis';
import type { LimiterCommands } from '../../packages/upstash/src/index.js';
import { createTcpRedis } from '../../packages/upstash/src/tcp.js';
import { startUpstashRestServer } from './upstash-rest-server.js';

export type TransportName = 'tcp' | 'rest';
export const TRANSPORTS: TransportName[] = ['tcp', 'rest'];

export interface Transport {
  /** An @upstash/redis client (the REST one, or one on the TCP connection): for a test's own commands. */
  redis: Redis;
  /** What createRedisLimiter takes, as hosts give it: TCP's commands straight on ioredis, or the REST client. */
  commands: Redis | LimiterCommands;
  close(): Promise<void>;
}

/** One client (its own connection) to the Redis at `redisUrl`. */
export async function openTransport(name: TransportName, redisUrl: string): Promise<Transport> {
  if (name === 'tcp') {
    const tcp = createTcpRedis(redisUrl);
    await tcp.ready();
    return { redis: tcp.redis, commands: tcp.commands, close: tcp.close };
  }
  const server = await startUpstashRestServer(redisUrl);
  // No client retries: a failed request should fail the call at once (the limiter fails open).
  const redis = new Redis({ url: server.url, token: server.token, retry: false, enableTelemetry: false });
  return { redis, commands: redis, close: server.close };
}
