/**
 * `npm run start:deno`: the Deno host on the environment of decisions.md §1. Without
 * DATABASE_URL it serves the in-memory demo (as CATALOGUE_STORAGE=memory) and prints the admin
 * token and a ready demo key; Deno.cron runs the jobs every minute.
 */
import process from 'node:process';
import { consoleLogger } from '@catalogue/core';
import { banner, createServiceFromEnv, demoKeyFor, demoSecrets, readEnv } from '@catalogue/host-kit';
import { cronJobs, serveWithDeno } from './serve.ts';

const source = Deno.env.toObject();
const env = readEnv(source);
const logger = consoleLogger(env.logLevel);
const demo = env.storage === 'memory';
const hosted = await createServiceFromEnv(source, { logger, ...(demo ? demoSecrets(env.dataDir) : {}) });

const server = serveWithDeno(hosted.service, { port: env.port, hostname: '0.0.0.0', trustProxy: env.trustProxy, publicOrigin: env.publicOrigin });
// Issued once the server listens (Deno.serve throws when it cannot), so a failed start writes no customer.
const demoKey = await demoKeyFor(env, hosted.accounts, env.storage === 'postgres');
// Where this process listens (what the curl examples reach), not BASE_URL.
const url = `http://localhost:${server.addr.port}`;
process.stdout.write(
  banner({
    url,
    runtime: `deno ${Deno.version.deno}`,
    adminToken: hosted.adminToken,
    adminTokenGenerated: hosted.adminTokenGenerated,
    demoKey,
    storage: hosted.storage,
    limiter: hosted.limiter,
  }),
);
cronJobs(hosted.service);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.log({ level: 'info', kind: 'server.stopping', signal });
  // shutdown() stops accepting and resolves once in-flight requests have answered.
  await server.shutdown();
  await hosted.close();
  logger.log({ level: 'info', kind: 'server.stopped' });
  Deno.exit(0);
}
Deno.addSignalListener('SIGTERM', () => void stop('SIGTERM'));
Deno.addSignalListener('SIGINT', () => void stop('SIGINT'));
