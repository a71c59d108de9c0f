/**
 * CPU time spent per request by each process a target uses (its own process, the PostgreSQL
 * backends of the bench database, the bench's Redis), read from /proc and Redis's INFO around a
 * measured run. Throughput on a shared 2-core machine moves with whatever else runs; the CPU
 * a request costs barely does, so the two together tell a change from noise (issue 14).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Redis as IORedis } from 'ioredis';
import type postgres from 'postgres';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds; 0 once it is gone. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * utime + stime of a process and of its descendants alive now: the Node host with
 * WEB_CONCURRENCY is a node:cluster primary and its workers (hosts/node/src/cluster/).
 */
export function processTreeCpuSeconds(pid: number): number {
  let seconds = processCpuSeconds(pid);
  for (const child of childPids(pid)) seconds += processTreeCpuSeconds(child);
  return seconds;
}

function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // gone, or a kernel without the children file
  }
}

/** CPU seconds of every backend connected to `database` (the bench's own connections excluded). */
export async function postgresCpuSeconds(admin: postgres.Sql, database: string): Promise<Map<number, number>> {
  const rows = await admin<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE datname = ${database} AND pid <> pg_backend_pid()`;
  return new Map(rows.map(({ pid }) => [pid, processCpuSeconds(pid)]));
}

/** used_cpu_user + used_cpu_sys of the Redis at `url`. */
export async function redisCpuSeconds(url: string): Promise<number> {
  const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('cpu');
    const value = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? 0);
    return value('used_cpu_user') + value('used_cpu_sys');
  } finally {
    redis.disconnect();
  }
}

export interface CpuSnapshot {
  process: number;
  postgres: Map<number, number>;
  redis: number;
}

export interface CpuPerRequest {
  /** µs of CPU per request. */
  process: number;
  postgres: number;
  redis: number;
  total: number;
}

export async function cpuSnapshot(pid: number, admin: postgres.Sql, database: string, redisUrl: string): Promise<CpuSnapshot> {
  return { process: processTreeCpuSeconds(pid), postgres: await postgresCpuSeconds(admin, database), redis: await redisCpuSeconds(redisUrl) };
}

/** CPU seconds the backends spent between two readings; ones that came or went count from 0 or to their last reading. */
export function postgresSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, reading] of after) seconds += reading - (before.get(pid) ?? 0);
  return seconds;
}

export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): CpuPerRequest {
  const postgresSeconds = postgresSecondsBetween(before.postgres, after.postgres);
  const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, requests);
  const result = {
    process: perRequest(after.process - before.process),
    postgres: perRequest(postgresSeconds),
    redis: perRequest(after.redis - before.redis),
  };
  return { ...result, total: result.process + result.postgres + result.redis };
}
