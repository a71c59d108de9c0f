/**
 * `npm run start:bun`: the Bun host on the environment of decisions.md §1. Without
 * DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory) and prints the admin
 * token and a ready demo key; runJobs runs every minute.
 */
import { consoleLogger } from '@catalogue/core';
import { banner, createServiceFromEnv, demoSecrets, issueDemoKey, readEnv, scheduleJobs } from '@catalogue/host-kit';
import { serveWithBun } from './serve.js';

const env = readEnv(process.env);
const logger = consoleLogger(env.logLevel);
const demo = env.storage === 'memory';
const hosted = await createServiceFromEnv(process.env, { logger, ...(demo ? demoSecrets(env.dataDir) : {}) });
const demoKey = demo ? await issueDemoKey(hosted.accounts) : null;

const running = serveWithBun(hosted.service, { port: env.port, trustProxy: env.trustProxy });
// The banner shows where this process listens (what the curl examples reach), not BASE_URL.
process.stdout.write(
  banner({ url: running.url, runtime: `bun ${Bun.version}`, adminToken: hosted.adminToken, demoKey, storage: hosted.storage, limiter: hosted.limiter }),
);

const jobs = scheduleJobs(hosted.service, logger);
let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.log({ level: 'info', kind: 'server.stopping', signal });
  jobs.stop();
  await running.close();
  await hosted.close();
  logger.log({ level: 'info', kind: 'server.stopped' });
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
