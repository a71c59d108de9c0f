/**
 * `npm start`: the Node host on the environment of decisions.md §1. With nothing set it runs
 * the embedded default and prints the URL, the admin token and a ready ck_test_ demo key.
 */
import { randomBytes } from 'node:crypto';
import { consoleLogger, createService, issueCustomerKey } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { generateCatalogue } from '@catalogue/importer';
import { banner } from './banner.js';
import { readEnv } from './env.js';
import { persistentSecret } from './secrets.js';
import { createNodeServer, listen } from './server.js';

const JOBS_INTERVAL_MS = 60_000;

async function main(): Promise<void> {
  const env = readEnv(process.env);
  const logger = consoleLogger(env.logLevel);
  const adminToken = env.adminToken ?? persistentSecret(env.dataDir, 'admin-token');
  const secretKey = env.secretKey ?? persistentSecret(env.dataDir, 'secret-key', () => randomBytes(32).toString('base64'));

  const accounts = createMemoryAccounts();
  const service = createService(
    { catalogue: createMemoryCatalogue(generateCatalogue()), accounts, limiter: createMemoryLimiter(), logger },
    { baseUrl: env.baseUrl, adminToken, secretKey, publicRateLimitPerMinute: env.publicRateLimitPerMinute, cutoverSunsetAt: env.cutoverSunsetAt },
  );
  const demo = await issueCustomerKey(accounts, { email: 'demo@localhost', name: 'Demo', tier: 'self_serve_299', environment: 'test' }, new Date());

  const running = await listen(createNodeServer(service, { trustProxy: env.trustProxy }), env.port);
  const url = env.baseUrl.startsWith('http://localhost') ? running.url : env.baseUrl;
  process.stdout.write(banner({ url, adminToken, demoKey: demo.plaintext, storage: 'in-memory demo catalogue', limiter: 'in-process' }));

  const jobs = setInterval(() => void service.runJobs(), JOBS_INTERVAL_MS);
  jobs.unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ level: 'info', kind: 'server.stopping', signal });
    clearInterval(jobs);
    await running.close();
    logger.log({ level: 'info', kind: 'server.stopped' });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
