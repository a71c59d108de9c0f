/**
 * The fleet test's rows (fleet-limits-suite.ts) on a Redis Cluster of three masters of this
 * test's own (test/limits/redis-cluster-process.ts): REDIS_URL names one node, the hosts find
 * the others. Its store "restart" kills every node and creates the cluster again, empty, on the
 * same ports. A file of its own, so each run stays within its time and runs alone when asked.
 */
import { createRedisCluster } from '../limits/redis-cluster-process.js';
import { describeFleetLimits } from './fleet-limits-suite.js';

describeFleetLimits('a fleet of three hosts on a Redis Cluster of three masters', async () => {
  let cluster = await createRedisCluster(3);
  const ports = cluster.nodes.map((node) => node.port);
  return {
    env: { REDIS_URL: cluster.url },
    kill: () => cluster.stop(),
    start: async () => {
      cluster = await createRedisCluster(3, ports);
    },
  };
});
