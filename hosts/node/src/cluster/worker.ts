/**
 * One worker process of the Node host (WEB_CONCURRENCY > 1, docs/hosts.md "Worker processes"):
 * it builds its own service from the environment — its own pools, Redis connection, key cache,
 * record cache and limiter — and listens on PORT, which node:cluster shares with its siblings.
 * The primary migrated before forking it, so it does not migrate; the primary prints the banner
 * and issues the demo key.
 *
 * Jobs: every worker's limiter holds the usage of the calls it admitted until it flushes them,
 * and only it can (docs/decisions.md §8), so every worker runs its limiter's part of runJobs each
 * minute. The rest of runJobs (grace expiry, mail outbox, overage reports, contract review,
 * purge) runs in slot 0 alone: overage reports read the month and send the growth since the last
 * report, so two runs at the same moment could each send an overlapping part.
 *
 * On SIGTERM/SIGINT (the primary forwards one) it closes as a single process does: jobs, then
 * the server (in-flight requests and their background work), then the limiter's usage and the
 * stores; then exits 0. If the primary is gone (the IPC channel closes) it does the same.
 */
import cluster from 'node:cluster';
import { exitGracefullyOnSignals, type HostRuntime, readEnv, scheduleJobs, serveFromEnv } from '@catalogue/host-kit';
import { bufferedLogger } from '@catalogue/host-kit/buffered-logger';
import { WORKER_SLOT_VARIABLE, type WorkerListening } from './messages.js';

export async function runWorker(runtime: HostRuntime, source: Record<string, string | undefined>): Promise<void> {
  const env = readEnv(source);
  // Every line carries the worker's pid, serialised once (not spread into each record).
  const logger = bufferedLogger(env.logLevel, { pid: process.pid });
  const { hosted, served } = await serveFromEnv(runtime, env, source, logger, false);
  const runsAllJobs = source[WORKER_SLOT_VARIABLE] === '0';
  const jobs = scheduleJobs(runsAllJobs ? hosted.service : { runJobs: (now = new Date()) => hosted.limiterJobs(now) }, logger);
  exitGracefullyOnSignals(logger, [() => jobs.stop(), () => served.close(), () => hosted.close()]);
  // An orphaned worker could take no new connection (the primary held the port): close, keep the usage.
  cluster.worker?.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  const listening: WorkerListening = { kind: 'catalogue.worker_listening', url: served.url, storage: hosted.storage, limiter: hosted.limiter };
  process.send?.(listening);
}
