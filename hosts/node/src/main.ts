/**
 * `npm start`: the Node host on the environment of decisions.md §1. With nothing set it runs
 * the embedded default (see storage.ts; CATALOGUE_STORAGE=memory for the in-memory demo) and
 * prints the URL, the admin token and a ready ck_test_ demo key.
 */
import { consoleLogger } from '@catalogue/core';
import { banner, createServiceFromEnv, demoSecrets, exitGracefullyOnSignals, readEnv, scheduleJobs } from '@catalogue/host-kit';
import { demoKey } from './demo-key.js';
import { withDocs } from './docs.js';
import { createNodeServer, listen } from './server.js';
import { openStorage } from './storage.js';

async function main(): Promise<void> {
  const env = readEnv(process.env);
  const logger = consoleLogger(env.logLevel);
  const storage = await openStorage(env, logger);
  // Without DATABASE_URL (embedded PGlite or memory) the demo keeps generated secrets in the data dir.
  const secrets = env.databaseUrl ? {} : demoSecrets(env.dataDir);
  const hosted = await createServiceFromEnv(process.env, { logger, storage, ...secrets });
  const key = await demoKey(storage, env.dataDir);

  const running = await listen(createNodeServer(withDocs(hosted.service), { trustProxy: env.trustProxy }), env.port);
  // The banner shows where this process listens (what the curl examples reach), not BASE_URL.
  process.stdout.write(
    banner({
      url: running.url,
      runtime: `node ${process.version}`,
      adminToken: hosted.adminToken,
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
