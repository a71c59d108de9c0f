/**
 * The Node host's primary process when WEB_CONCURRENCY > 1 (docs/hosts.md "Worker processes",
 * docs/decisions.md §9). It serves nothing itself. Once, before forking: refuse storage a worker
 * cannot share (web-concurrency.ts) and apply the migrations. Then it forks the workers
 * (worker.ts), which listen on the same PORT through node:cluster; once every one listens it
 * issues the demo key (when CATALOGUE_DEMO_KEY=true, kept in the data dir as always) and prints
 * the banner, once. It restarts a worker that dies (supervisor.ts). SIGTERM/SIGINT: every worker
 * closes gracefully (its usage made durable, its stores closed); the primary exits 0 once all
 * have exited cleanly, 1 if one failed or outlived the wait.
 */
import { banner, demoKeyFor, HOST_GRACE_MS, type HostRuntime, prepareDatabase, readEnv, workersRefusal } from '@catalogue/host-kit';
import { bufferedLogger } from '@catalogue/host-kit/buffered-logger';
import type { WorkerListening } from './messages.js';
import { superviseWorkers } from './supervisor.js';

/**
 * How long the primary waits for its workers at shutdown: a worker's close lets in-flight
 * requests and then their background work each take up to the grace period, and then flushes
 * its usage and closes its pools (5 s each at most).
 */
const STOP_WAIT_MS = 2 * HOST_GRACE_MS + 15_000;

export async function runPrimary(runtime: HostRuntime, source: Record<string, string | undefined>): Promise<void> {
  const env = readEnv(source);
  const workers = env.webConcurrency;
  const refusal = workersRefusal(workers, env);
  if (refusal) throw new Error(refusal);
  const logger = bufferedLogger(env.logLevel, { pid: process.pid, role: 'primary' });
  if (!env.redisUrl && !env.upstashUrl)
    // As N instances without Redis (docs/hosts.md, "Running at scale"): usage stays exact, limits do not.
    logger.log({
      level: 'warn',
      kind: 'cluster.limits_per_worker',
      workers,
      message: 'without REDIS_URL each worker limits on its own: N workers allow N× the burst and concurrency',
    });
  const database = await prepareDatabase(env, logger);
  logger.log({ level: 'info', kind: 'cluster.migrated', applied: database.applied });
  const supervisor = superviseWorkers(workers, logger);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ level: 'info', kind: 'server.stopping', signal, workers });
    const clean = await supervisor.stop(STOP_WAIT_MS);
    logger.log({ level: clean ? 'info' : 'error', kind: 'server.stopped', workers_clean: clean });
    await logger.flush();
    process.exit(clean ? 0 : 1);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  let demoKey: string | null;
  let first: WorkerListening;
  try {
    [first] = (await supervisor.started) as [WorkerListening];
    demoKey = await demoKeyFor(env, database.accounts, true);
  } catch (error) {
    stopping = true;
    await supervisor.stop(STOP_WAIT_MS);
    throw error;
  } finally {
    await database.close();
  }
  const { url, storage, limiter } = first;
  // No generated admin token here: a demo that generates one has no DATABASE_URL, refused above.
  const adminToken = env.adminToken;
  process.stdout.write(
    banner({ url, baseUrl: env.baseUrl, storage, limiter, runtime: `${runtime.name}, ${workers} workers`, adminToken, adminTokenGenerated: false, demoKey }),
  );
}
