/** The two transports of @catalogue/upstash, built the same way for every suite. */
import { Redis } from '@upstash/redis';
import { createTcpRedis } from '../../packages/upstash/src/tcp.js';
import { startUpstashRestServer } from './upstash-rest-server.js';

export type TransportName = 'tcp' | 'rest';
export const TRANSPORTS: TransportName[] = ['tcp', 'rest'];

export interface Transport {
  redis: Redis;
  close(): Promise<void>;
}

/** One client (its own connection) to the Redis at `redisUrl`. */
export async function openTransport(name: TransportName, redisUrl: string): Promise<Transport> {
  if (name === 'tcp') {
    const tcp = createTcpRedis(redisUrl);
    await tcp.ready();
    return { redis: tcp.redis, close: tcp.close };
  }
  const server = await startUpstashRestServer(redisUrl);
  // No client retries: a failed request should fail the call at once (the limiter fails open).
  const redis = new Redis({ url: server.url, token: server.token, retry: false, enableTelemetry: false });
  return { redis, close: server.close };
}
