/**
 * `npm start`: the Node host on the environment of docs/decisions.md §1 (host-kit's runHost).
 * With nothing set it runs the embedded default (storage.ts; CATALOGUE_STORAGE=memory for the
 * in-memory demo), migrates, serves /docs in front of the service (host-kit's runHost, on every runtime), and prints the URL, the
 * admin token and a ready ck_test_ demo key.
 *
 * WEB_CONCURRENCY > 1 (docs/hosts.md, "Worker processes"): this process becomes the primary of
 * node:cluster (cluster/primary.ts), migrates once and forks that many workers, each running
 * this file again as cluster/worker.ts. At 1, the default, it is the single process above.
 */
import cluster from 'node:cluster';
import { type HostRuntime, readEnv, runHost } from '@catalogue/host-kit';
import { bufferedLogger } from '@catalogue/host-kit/buffered-logger';
import { runPrimary } from './cluster/primary.js';
import { runWorker } from './cluster/worker.js';
import { serve } from './serve.js';
import { openEmbeddedStorage } from './storage.js';

const runtime: HostRuntime = {
  name: `node ${process.version}`,
  serve,
  // Without CATALOGUE_STORAGE or DATABASE_URL: the embedded PGlite default (docs/decisions.md §1).
  openStorage: (env, logger) => (process.env.CATALOGUE_STORAGE || env.databaseUrl ? Promise.resolve(undefined) : openEmbeddedStorage(env.dataDir, logger)),
  migrate: true,
  // JSON lines written once per event-loop turn (sonic-boom): console.log's write per line cost a quarter of the throughput (issue 31).
  logger: bufferedLogger,
};

async function start(): Promise<void> {
  if (cluster.isWorker) return runWorker(runtime, process.env);
  return readEnv(process.env).webConcurrency > 1 ? runPrimary(runtime, process.env) : runHost(runtime, process.env);
}

start().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
