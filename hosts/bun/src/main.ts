/**
 * `npm run start:bun`: the Bun host on the environment of decisions.md §1. Without
 * DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory) and prints the admin
 * token and a ready demo key; runJobs runs every minute.
 */
import { consoleLogger } from '@catalogue/core';
import { banner, createServiceFromEnv, demoKeyFor, demoSecrets, exitGracefullyOnSignals, readEnv, scheduleJobs } from '@catalogue/host-kit';
import { serveWithBun } from './serve.js';

const env = readEnv(process.env);
const logger = consoleLogger(env.logLevel);
const demo = env.storage === 'memory';
const hosted = await createServiceFromEnv(process.env, { logger, ...(demo ? demoSecrets(env.dataDir) : {}) });

const running = serveWithBun(hosted.service, { port: env.port, trustProxy: env.trustProxy, publicOrigin: env.publicOrigin });
// Issued once the server listens (Bun.serve throws when it cannot), so a failed start writes no customer.
const demoKey = await demoKeyFor(env, hosted.accounts, env.storage === 'postgres');
// The banner shows where this process listens (what the curl examples reach), not BASE_URL.
process.stdout.write(
  banner({
    url: running.url,
    runtime: `bun ${Bun.version}`,
    adminToken: hosted.adminToken,
    adminTokenGenerated: hosted.adminTokenGenerated,
    demoKey,
    storage: hosted.storage,
    limiter: hosted.limiter,
  }),
);

const jobs = scheduleJobs(hosted.service, logger);
exitGracefullyOnSignals(logger, [() => jobs.stop(), () => running.close(), () => hosted.close()]);
