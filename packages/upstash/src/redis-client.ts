/**
 * The limiter's Redis over TCP in the three shapes an operator may run (issue 27, as Kong's Rate
 * Limiting Advanced and APISIX take them), built from configuration alone:
 * - `REDIS_URL` naming a Redis, or ANY node of a Redis Cluster: the first connection asks
 *   `INFO cluster`; on `cluster_enabled:1` it is dropped for an ioredis `Cluster` seeded with
 *   that node, which finds the other masters itself and follows MOVED / ASK;
 * - `REDIS_SENTINELS` + `REDIS_SENTINEL_NAME`: ioredis asks the sentinels for the primary of that
 *   name and asks them again when it is lost (a failover).
 * Whatever the shape, commands fail fast while the store is away (no offline queue, nothing
 * resent after a reconnect): the limiter fails open rather than wait (docs/decisions.md §8).
 * Until the first connection has said which shape it is, commands fail the same way.
 */
import { Cluster, type ClusterNode, Redis as IORedis, type RedisOptions } from 'ioredis';
import type { LimiterCommands } from './commands.js';
import { tcpCommands } from './tcp-commands.js';

export type RedisTarget =
  | { url: string }
  | {
      /** Sentinels to ask for the primary (`host:port` each). */
      sentinels: Array<{ host: string; port: number }>;
      /** The monitored primary's name (`sentinel monitor <name> …`). */
      name: string;
      /** AUTH of the sentinels themselves (`requirepass` in sentinel.conf), when set. */
      sentinelPassword?: string;
      /** AUTH of the primary and replicas they name (`requirepass` / `masterauth`), when set. */
      password?: string;
    };

export type RedisMode = 'single' | 'cluster' | 'sentinel';

export interface RedisClient {
  /** What createRedisLimiter takes: they follow the connection once its shape is known. */
  readonly commands: LimiterCommands;
  /** 'single' until a cluster is detected; null before the first connection answered. */
  mode(): RedisMode | null;
  /** The connection the commands go through (null before the shape is known). */
  connection(): IORedis | Cluster | null;
  /** Readiness: PING (single, sentinel's primary), or `cluster_state:ok` on every master. */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Fail fast while disconnected; never resend a command after a reconnect (tcp-redis.ts). */
const FAIL_FAST: RedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
  enableAutoPipelining: false,
};

class StoreNotConnectedError extends Error {
  constructor(readonly code: string | undefined) {
    super(`limit store not connected${code ? ` (${code})` : ''}`);
  }
}

/** The seed node and the connection options of a cluster node, out of REDIS_URL. */
function clusterSeed(url: string): { node: ClusterNode; options: RedisOptions } {
  const parsed = new URL(url);
  const options: RedisOptions = {};
  if (parsed.username) options.username = decodeURIComponent(parsed.username);
  if (parsed.password) options.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') options.tls = {};
  return { node: { host: parsed.hostname, port: Number(parsed.port || 6379) }, options };
}

function clusterOf(url: string, extra: RedisOptions): Cluster {
  const seed = clusterSeed(url);
  return new Cluster([seed.node], {
    enableOfflineQueue: false,
    // Node connections queue only until their first connect; the limiter's timeout bounds a call.
    redisOptions: { ...seed.options, autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 0, ...extra },
    // A MOVED answer is followed at once; a failover's CLUSTERDOWN is retried after 100 ms, within the background timeout.
    retryDelayOnMoved: 0,
    enableAutoPipelining: false,
  });
}

const errorCode = (error: unknown) => (error as { code?: string } | null)?.code;

export async function createRedisClient(target: RedisTarget, options: RedisOptions = {}): Promise<RedisClient> {
  let current: { mode: RedisMode; connection: IORedis | Cluster; commands: LimiterCommands } | null = null;
  let lastErrorCode: string | undefined;
  let closed = false;
  /** Every connection made, closed with the client (the URL's first one even when it never answered). */
  const opened: Array<IORedis | Cluster> = [];
  const notConnected = () => Promise.reject(new StoreNotConnectedError(lastErrorCode));

  const commands: LimiterCommands = {
    get cluster() {
      return current?.mode === 'cluster';
    },
    evalScript: (script, keys, args) => (current ? current.commands.evalScript(script, keys, args) : notConnected()),
    zrem: (key, ...members) => (current ? current.commands.zrem(key, ...members) : notConnected()),
    hget: (key, field) => (current ? current.commands.hget(key, field) : notConnected()),
    set: (key, value) => (current ? current.commands.set(key, value) : notConnected()),
  };

  const use = (mode: RedisMode, connection: IORedis | Cluster) => {
    current = { mode, connection, commands: tcpCommands(connection) };
  };

  let firstAnswer: Promise<void>;
  if ('sentinels' in target) {
    const connection = new IORedis({
      sentinels: target.sentinels,
      name: target.name,
      ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
      ...(target.password ? { password: target.password } : {}),
      // Sentinel publishes +switch-master: reconnect to the new primary without waiting for the old one's socket to time out.
      failoverDetector: true,
      ...FAIL_FAST,
      ...options,
    });
    opened.push(connection);
    connection.on('error', (error) => {
      lastErrorCode = errorCode(error);
    });
    use('sentinel', connection);
    firstAnswer = new Promise<void>((resolve) => {
      connection.once('ready', resolve);
      connection.once('error', () => resolve());
    });
  } else {
    const probe = new IORedis(target.url, { ...FAIL_FAST, ...options });
    opened.push(probe);
    probe.on('error', (error) => {
      lastErrorCode = errorCode(error);
    });
    // On every (re)connect until the shape is known: a store that was away at start is detected once it answers.
    const detect = async () => {
      if (current || closed) return;
      let info: string;
      try {
        info = await probe.info('cluster');
      } catch (error) {
        // A Redis that refuses INFO (renamed away) is not a cluster node: cluster clients need it.
        // A connection that failed tries again on its next 'ready'.
        if (error instanceof Error && error.name === 'ReplyError') info = '';
        else {
          lastErrorCode = errorCode(error);
          return;
        }
      }
      if (!/^cluster_enabled:1\s*$/m.test(info)) {
        use('single', probe);
        return;
      }
      probe.disconnect();
      const cluster = clusterOf(target.url, options);
      opened.push(cluster);
      cluster.on('error', (error) => {
        lastErrorCode = errorCode(error);
      });
      await new Promise<void>((resolve) => {
        cluster.once('ready', resolve);
        cluster.once('error', () => resolve());
      });
      if (!closed) use('cluster', cluster);
    };
    let detecting: Promise<void> = Promise.resolve();
    probe.on('ready', () => {
      detecting = detect();
    });
    firstAnswer = new Promise<void>((resolve) => {
      // detect() started first (its listener was added before this one): wait for its answer.
      probe.once('ready', () => void detecting.then(resolve));
      probe.once('error', () => resolve());
    });
  }
  // Start once the store said what it is, or at once if it is away (commands fail open until it answers).
  await Promise.race([firstAnswer, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);

  return {
    commands,
    mode: () => current?.mode ?? null,
    connection: () => current?.connection ?? null,
    async check() {
      const shape = current;
      if (!shape) throw new StoreNotConnectedError(lastErrorCode);
      if (shape.mode !== 'cluster') {
        await (shape.connection as IORedis).ping();
        return;
      }
      const masters = (shape.connection as Cluster).nodes('master');
      if (masters.length === 0) throw new StoreNotConnectedError(lastErrorCode);
      await Promise.all(
        masters.map(async (node) => {
          // A node away would queue the command (ioredis keeps node connections' offline queues);
          // one not used yet ('wait': they connect lazily) connects for it.
          if (node.status !== 'ready' && node.status !== 'wait') throw new StoreNotConnectedError(lastErrorCode);
          const info = String(await node.cluster('INFO'));
          if (!/^cluster_state:ok\s*$/m.test(info)) throw Object.assign(new Error('cluster state not ok'), { code: 'CLUSTERDOWN' });
        }),
      );
    },
    async close() {
      closed = true;
      for (const connection of opened) connection.disconnect();
    },
  };
}
