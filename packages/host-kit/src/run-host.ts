/**
 * runHost: what `npm start`, `npm run start:bun` and `npm run start:deno` do, once for every
 * runtime. The configuration table → ports → service; serve it; then, only once the server
 * listens (a start that fails writes no customer), the demo key; the start banner; runJobs
 * every minute; and on SIGTERM/SIGINT a graceful stop: jobs, then the server (in-flight
 * requests and their background work), then the stores (the limiter's usage first).
 */
import { consoleLogger, type Logger, type LogLevel, type Service } from '@catalogue/core';
import { banner, demoKeyFor, demoSecrets, demoSecretsWanted } from './demo.js';
import { withDocs } from './docs.js';
import { type HostEnv, readEnv } from './env.js';
import { type JobSchedule, scheduleJobs } from './jobs.js';
import type { ServedHost, ServeOptions } from './serve.js';
import { createServiceFromEnv, type HostedService, type HostStorage } from './service-from-env.js';
import { exitGracefullyOnSignals } from './shutdown.js';

export interface HostRuntime {
  /** For the banner, e.g. `node v20.19.0`. */
  name: string;
  /** The runtime's serve() (hosts/<runtime>/src/serve.ts). */
  serve(service: Service, options: ServeOptions): Promise<ServedHost>;
  /** runJobs every minute; default a timer (Deno uses Deno.cron). */
  scheduleJobs?(service: Service, logger: Logger): JobSchedule;
  /** Storage the host opens itself instead of the one the environment names (the Node host's embedded PGlite). */
  openStorage?(env: HostEnv, logger: Logger): Promise<HostStorage | undefined>;
  /** Requests the host answers before the service; default withDocs (the API reference at /docs, every runtime). */
  wrap?(service: Service): Service;
  /** Apply pending migrations on a database (the Node host does; the others migrate per deploy). */
  migrate?: boolean;
  /**
   * The process's logger at LOG_LEVEL, `fields` on every line (the Node host's workers: `pid`):
   * Node and Bun give host-kit's `bufferedLogger` (`@catalogue/host-kit/buffered-logger`), flushed
   * before a graceful exit; default core's consoleLogger.
   */
  logger?(level: LogLevel, fields?: Record<string, string | number>): Logger;
}

export async function runHost(runtime: HostRuntime, source: Record<string, string | undefined>): Promise<void> {
  const env = readEnv(source);
  const logger = runtime.logger?.(env.logLevel) ?? consoleLogger(env.logLevel);
  // Worker processes are the Node host's (hosts/node/src/cluster/); another runtime serves one
  // process here, and several of its processes share a port by reusePort (docs/hosts.md).
  if (env.webConcurrency > 1) logger.log({ level: 'warn', kind: 'host.web_concurrency_ignored', runtime: runtime.name, web_concurrency: env.webConcurrency });
  const { hosted, served, storage } = await serveFromEnv(runtime, env, source, logger, runtime.migrate ?? false);
  const demoKey = await demoKeyFor(env, hosted.accounts, hosted.durable);
  process.stdout.write(
    banner({
      url: served.url,
      baseUrl: env.baseUrl,
      runtime: runtime.name,
      adminToken: hosted.adminToken,
      adminTokenGenerated: hosted.adminTokenGenerated,
      demoKey,
      storage: hosted.storage,
      limiter: hosted.limiter,
    }),
  );
  const jobs = (runtime.scheduleJobs ?? scheduleJobs)(hosted.service, logger);
  exitGracefullyOnSignals(logger, [() => storage?.stopping?.(), () => jobs.stop(), () => served.close(), () => hosted.close()]);
}

/**
 * The configuration table → ports → service, served on PORT: what one process does, and what
 * each worker of the Node host does (hosts/node/src/cluster/worker.ts, which leaves `migrate`
 * to the primary). The demo, the banner and the jobs are the caller's.
 */
export async function serveFromEnv(
  runtime: HostRuntime,
  env: HostEnv,
  source: Record<string, string | undefined>,
  logger: Logger,
  migrate: boolean,
): Promise<{ hosted: HostedService; served: ServedHost; storage: HostStorage | undefined }> {
  const storage = await runtime.openStorage?.(env, logger);
  const secrets = demoSecretsWanted(env) ? demoSecrets(env.dataDir) : {};
  const hosted = await createServiceFromEnv(source, { logger, migrate, ...(storage ? { storage } : {}), ...secrets });
  const served = await runtime.serve((runtime.wrap ?? withDocs)(hosted.service), {
    port: env.port,
    hostname: '0.0.0.0',
    trustProxy: env.trustProxy,
    publicOrigin: env.publicOrigin,
  });
  return { hosted, served, storage };
}
