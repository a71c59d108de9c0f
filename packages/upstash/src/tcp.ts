/**
 * `@catalogue/upstash/tcp`: Redis over TCP for the limiter (REDIS_URL, a Redis Cluster through
 * any of its nodes, or REDIS_SENTINELS: createRedisClient), through ioredis — an optional peer of
 * this package, needed only here; the REST transport needs none of it.
 */
export { createRedisClient, type RedisClient, type RedisMode, type RedisTarget } from './redis-client.js';
export { tcpCommands } from './tcp-commands.js';
export { createTcpRedis, type TcpRedis } from './tcp-redis.js';
export { createTcpRequester } from './tcp-requester.js';
