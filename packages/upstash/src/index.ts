export {
  createRedisLimiter,
  type RedisLimiter,
  type RedisLimiterOptions,
  BURST_WINDOW_MS,
  LEASE_MS,
  CALL_MARKER_TTL_MS,
} from './redis-limiter.js';
export { createTcpRedis, type TcpRedis } from './tcp-redis.js';
export { createTcpRequester } from './tcp-requester.js';
export { limiterKeys, type LimiterKeys } from './keys.js';
export { StoreTimeoutError } from './with-timeout.js';
