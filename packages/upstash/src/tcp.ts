/**
 * `@catalogue/upstash/tcp`: Redis over TCP (REDIS_URL) for the limiter, through ioredis — an
 * optional peer of this package, needed only here; the REST transport needs none of it.
 */
export { tcpCommands } from './tcp-commands.js';
export { createTcpRedis, type TcpRedis } from './tcp-redis.js';
export { createTcpRequester } from './tcp-requester.js';
