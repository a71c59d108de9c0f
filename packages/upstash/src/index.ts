/** @catalogue/upstash: the Limiter on @upstash/redis (Upstash REST; Redis over TCP from `@catalogue/upstash/tcp`). */
export { fromUpstash, isLimiterCommands, type LimiterCommands } from './commands.js';
export { type LimiterKeys, limiterKeys } from './keys.js';
export {
  BURST_WINDOW_MS,
  CALL_MARKER_TTL_MS,
  createRedisLimiter,
  LEASE_MS,
  MAX_BUFFERED_CALLS,
  type RedisLimiter,
  type RedisLimiterOptions,
} from './redis-limiter.js';
export { StoreTimeoutError } from './with-timeout.js';
