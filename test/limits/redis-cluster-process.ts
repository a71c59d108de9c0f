/**
 * A Redis Cluster of a test's own: three masters (no replicas) on spare ports, without
 * persistence, made with `redis-cli --cluster create` and ready once every node says
 * `cluster_state:ok`. stop() kills only these processes (by their PIDs) and removes their
 * node files. Shared with the fleet test.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis as IORedis } from 'ioredis';
import { ephemeralServerArgs, killProcess, sparePort, waitForPing } from './redis-process.js';

const run = promisify(execFile);

export interface RedisClusterNode {
  port: number;
  url: string;
  pid: number;
}

export interface RedisCluster {
  nodes: RedisClusterNode[];
  /** Every node's URL (any of them is a valid REDIS_URL). */
  urls: string[];
  /** The first node's URL. */
  url: string;
  /** The node (its URL) that holds `key` now: CLUSTER KEYSLOT, then the slot's master. */
  nodeOf(key: string): Promise<string>;
  /** SIGKILL of one node's process, by its PID (no replicas here: its slots are then uncovered). */
  killNode(port: number): Promise<void>;
  stop(): Promise<void>;
}

async function clusterStateOk(url: string): Promise<boolean> {
  const probe = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return /^cluster_state:ok\s*$/m.test(String(await probe.cluster('INFO')));
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * `ports`: the masters' ports, to start a cluster again, empty, where clients already look for it
 * (the fleet test restarts its store so); spare ports otherwise.
 */
export async function createRedisCluster(masters = 3, ports: readonly number[] = []): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const children: ChildProcess[] = [];
  const nodes: RedisClusterNode[] = [];
  const stop = async () => {
    await Promise.all(children.map(killProcess));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = ports[i] ?? (await sparePort());
      const child = spawn(
        'redis-server',
        [
          ...ephemeralServerArgs(port, dir),
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '2000',
        ],
        { stdio: 'ignore' },
      );
      children.push(child);
      nodes.push({ port, url: `redis://127.0.0.1:${port}`, pid: child.pid as number });
    }
    for (const node of nodes) await waitForPing(node.url);
    await run('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const node of nodes) {
      let ok = false;
      for (let attempt = 0; attempt < 200 && !ok; attempt++) {
        ok = await clusterStateOk(node.url);
        if (!ok) await new Promise((r) => setTimeout(r, 50));
      }
      if (!ok) throw new Error(`cluster node ${node.url} did not reach cluster_state:ok`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const first = nodes[0] as RedisClusterNode;
  return {
    nodes,
    urls: nodes.map((n) => n.url),
    url: first.url,
    async nodeOf(key) {
      const probe = new IORedis(first.url, { maxRetriesPerRequest: 0 });
      try {
        const slot = Number(await probe.cluster('KEYSLOT', key));
        const ranges = await probe.cluster('SLOTS');
        const master = ranges.find(([from, to]) => slot >= from && slot <= to)?.[2];
        if (!master) throw new Error(`no master holds slot ${slot}`);
        return `redis://${master[0]}:${master[1]}`;
      } finally {
        probe.disconnect();
      }
    },
    killNode: (port) => killProcess(children[nodes.findIndex((n) => n.port === port)]),
    stop,
  };
}
