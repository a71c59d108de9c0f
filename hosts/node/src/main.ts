/**
 * `npm start`: the Node host on the environment of decisions.md §1. With nothing set it runs
 * the embedded default (see storage.ts; CATALOGUE_STORAGE=memory for the in-memory demo) and
 * prints the URL, the admin token and a ready ck_test_ demo key.
 */
import { consoleLogger } from '@catalogue/core';
import { banner, createServiceFromEnv, demoKeyFor, demoSecrets, exitGracefullyOnSignals, readEnv, scheduleJobs } from '@catalogue/host-kit';
import { withDocs } from './docs.js';
import { createNodeServer, listen } from './serve.js';
import { openEmbeddedStorage } from './storage.js';

async function main(): Promise<void> {
  const env = readEnv(process.env);
  const logger = consoleLogger(env.logLevel);
  // Without CATALOGUE_STORAGE or DATABASE_URL: the embedded PGlite default (decisions.md §1).
  const embedded = process.env.CATALOGUE_STORAGE || env.databaseUrl ? undefined : await openEmbeddedStorage(env.dataDir, logger);
  // Without DATABASE_URL (embedded PGlite or memory) the demo keeps generated secrets in the data dir.
  const secrets = env.databaseUrl ? {} : demoSecrets(env.dataDir);
  const hosted = await createServiceFromEnv(process.env, { logger, migrate: true, ...(embedded ? { storage: embedded } : {}), ...secrets });

  const running = await listen(createNodeServer(withDocs(hosted.service), { trustProxy: env.trustProxy, publicOrigin: env.publicOrigin }), env.port);
  // The demo key is issued once the server listens, so a start that fails writes no customer.
  // Memory accounts forget keys on restart; durable storage keeps the printed key in the data dir.
  const key = await demoKeyFor(env, hosted.accounts, env.storage !== 'memory' || embedded !== undefined);
  // The banner shows where this process listens (what the curl examples reach), not BASE_URL.
  process.stdout.write(
    banner({
      url: running.url,
      runtime: `node ${process.version}`,
      adminToken: hosted.adminToken,
      adminTokenGenerated: hosted.adminTokenGenerated,
      demoKey: key,
      storage: hosted.storage,
      limiter: hosted.limiter,
    }),
  );

  const jobs = scheduleJobs(hosted.service, logger);
  exitGracefullyOnSignals(logger, [() => jobs.stop(), () => running.close(), () => hosted.close()]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
