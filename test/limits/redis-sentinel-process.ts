/**
 * Redis Sentinel of a test's own: a primary, a replica of it (`--replicaof`) and sentinels
 * monitoring it with quorum 1, on spare ports, without persistence. Sentinels here notice a dead
 * primary after 1 s and promote the replica within a few seconds (low down-after-milliseconds and
 * failover-timeout). killPrimary() SIGKILLs the process that is primary now, by its PID;
 * failover() asks the sentinels for a graceful switch. stop() kills only these processes.
 * With `password` the data nodes require it (and the sentinels use it); with `sentinelPassword`
 * the sentinels require their own.
 * Shared with the fleet test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis as IORedis } from 'ioredis';
import { ephemeralServerArgs, killProcess, sparePort, waitForPing } from './redis-process.js';

export interface RedisSentinel {
  /** The monitored primary's name (REDIS_SENTINEL_NAME). */
  name: string;
  sentinels: Array<{ host: string; port: number }>;
  /** REDIS_SENTINELS as an operator writes it. */
  sentinelList: string;
  /** The port of the primary as the sentinels name it now. */
  primaryPort(): Promise<number>;
  /** SIGKILL of the primary's process (its data is gone: no save, no AOF); answers its port. */
  killPrimary(): Promise<number>;
  /** SENTINEL FAILOVER: the replica is promoted, the old primary becomes its replica. */
  failover(): Promise<void>;
  /** Resolves once every sentinel has ended the failover to a primary other than `oldPort`, and it answers as master. */
  waitForPrimaryOtherThan(oldPort: number, timeoutMs?: number): Promise<number>;
  stop(): Promise<void>;
}

const NAME = 'catalogue-limits';

export interface RedisSentinelOptions {
  /** Sentinels (default 1). */
  sentinels?: number;
  /** `requirepass` (and `masterauth`) of the primary and replica; the sentinels' `auth-pass` (REDIS_PASSWORD). */
  password?: string;
  /** `requirepass` of the sentinels themselves (REDIS_SENTINEL_PASSWORD). */
  sentinelPassword?: string;
}

async function answer<T>(port: number, ask: (redis: IORedis) => Promise<T>, password?: string): Promise<T> {
  const redis = new IORedis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    ...(password ? { password } : {}),
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await ask(redis);
  } finally {
    redis.disconnect();
  }
}

const until = async (what: string, timeoutMs: number, done: () => Promise<boolean>) => {
  // Polls every 100 ms, at most timeoutMs / 100 times (a wait's bound, counted, not clocked).
  for (let polls = 0; polls < timeoutMs / 100; polls++) {
    if (await done().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

export async function createRedisSentinel(options: RedisSentinelOptions | number = {}): Promise<RedisSentinel> {
  const { sentinels: sentinelCount = 1, password, sentinelPassword } = typeof options === 'number' ? { sentinels: options } : options;
  const auth = password ? `:${encodeURIComponent(password)}@` : '';
  const sentinelAuth = sentinelPassword ? `:${encodeURIComponent(sentinelPassword)}@` : '';
  const dir = await mkdtemp(join(tmpdir(), 'redis-sentinel-'));
  const byPort = new Map<number, ChildProcess>();
  const server = (port: number, args: string[]) => {
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    byPort.set(port, child);
  };
  const stop = async () => {
    await Promise.all([...byPort.values()].map(killProcess));
    await rm(dir, { recursive: true, force: true });
  };
  const dataArgs = (port: number) => [...ephemeralServerArgs(port, dir), ...(password ? ['--requirepass', password, '--masterauth', password] : [])];
  const sentinels: Array<{ host: string; port: number }> = [];
  try {
    const primary = await sparePort();
    server(primary, dataArgs(primary));
    await waitForPing(`redis://${auth}127.0.0.1:${primary}`);
    const replica = await sparePort();
    server(replica, [...dataArgs(replica), '--replicaof', '127.0.0.1', String(primary)]);
    await waitForPing(`redis://${auth}127.0.0.1:${replica}`);
    await until('the replica to sync', 20_000, async () => /master_link_status:up/.test(await answer(replica, (r) => r.info('replication'), password)));
    for (let i = 0; i < sentinelCount; i++) {
      const port = await sparePort();
      const conf = join(dir, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${NAME} 127.0.0.1 ${primary} 1`,
          ...(password ? [`sentinel auth-pass ${NAME} ${password}`] : []),
          ...(sentinelPassword ? [`requirepass ${sentinelPassword}`] : []),
          `sentinel down-after-milliseconds ${NAME} 1000`,
          `sentinel failover-timeout ${NAME} 3000`,
          `sentinel parallel-syncs ${NAME} 1`,
          '',
        ].join('\n'),
      );
      server(port, [conf, '--sentinel']);
      await waitForPing(`redis://${sentinelAuth}127.0.0.1:${port}`);
      sentinels.push({ host: '127.0.0.1', port });
    }
    // Every sentinel has found the replica (so it has someone to promote).
    for (const s of sentinels) {
      await until('the sentinels to see the replica', 20_000, async () => {
        const replicas = (await answer(s.port, (r) => r.call('SENTINEL', 'REPLICAS', NAME), sentinelPassword)) as unknown[];
        return replicas.length > 0;
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const first = sentinels[0] as { host: string; port: number };
  const primaryPort = async () => {
    const [, port] = (await answer(first.port, (r) => r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', NAME), sentinelPassword)) as [string, string];
    return Number(port);
  };
  return {
    name: NAME,
    sentinels,
    sentinelList: sentinels.map((s) => `${s.host}:${s.port}`).join(','),
    primaryPort,
    async killPrimary() {
      const port = await primaryPort();
      await killProcess(byPort.get(port));
      return port;
    },
    async failover() {
      await answer(first.port, (r) => r.call('SENTINEL', 'FAILOVER', NAME), sentinelPassword);
    },
    async waitForPrimaryOtherThan(oldPort, timeoutMs = 30_000) {
      let now = oldPort;
      await until('the sentinels to promote the replica', timeoutMs, async () => {
        now = await primaryPort();
        if (now === oldPort || !/role:master/.test(await answer(now, (r) => r.info('replication'), password))) return false;
        // GET-MASTER-ADDR-BY-NAME names the promoted replica already while the sentinels still
        // reconfigure replicas; +switch-master (which makes clients with a failover detector,
        // ours included, reconnect once more) comes only when the failover has ended.
        for (const s of sentinels) {
          const fields = (await answer(s.port, (r) => r.call('SENTINEL', 'MASTER', NAME), sentinelPassword)) as string[];
          const flags = fields[fields.indexOf('flags') + 1] ?? '';
          if (fields[fields.indexOf('port') + 1] !== String(now) || flags.includes('failover_in_progress')) return false;
        }
        return true;
      });
      return now;
    },
    stop,
  };
}
