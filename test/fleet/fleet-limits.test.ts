/**
 * Issue 27, item 7: the limits held by a fleet of real hosts (two Node, one Bun) on one
 * PostgreSQL database and a redis-server of this test's own, which it kills and restarts.
 * The rows are in fleet-limits-suite.ts; a Redis Cluster run is one more describeFleetLimits
 * with a store that kills and restarts the cluster.
 */
import { createRedisProcess } from '../limits/redis-process.js';
import { describeFleetLimits } from './fleet-limits-suite.js';

describeFleetLimits('a fleet of three hosts on one redis-server', async () => {
  const redis = await createRedisProcess();
  await redis.start();
  return { env: { REDIS_URL: redis.url }, kill: () => redis.kill(), start: () => redis.start() };
});
