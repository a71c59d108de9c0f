/**
 * createServiceFromEnv: the configuration table → ports → service, the same for every host.
 *
 * Storage: the in-memory demo (generated catalogue, memory accounts) or PostgreSQL. Limits: an
 * in-process limiter, or Redis over TCP (REDIS_URL: one Redis or any node of a Redis Cluster;
 * REDIS_SENTINELS: Redis behind Sentinel) / Upstash REST (UPSTASH_REDIS_REST_URL +
 * TOKEN). The adapters are optional peers imported only when the configuration names them
 * (optional-peer.ts), so a host without a database never loads the PostgreSQL driver, one
 * without Stripe never loads the Stripe SDK, and none loads the Discogs importer: the demo
 * catalogue comes from the generator alone (@catalogue/importer/generate).
 */
import {
  type Accounts,
  type Billing,
  type Catalogue,
  type CatalogueData,
  consoleLogger,
  createLogMailer,
  createService,
  type Limiter,
  type Logger,
  type Mailer,
  type Probe,
  type Service,
} from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { type HostEnv, readEnv } from './env.js';
import { type MetricSources, prometheusMetrics } from './metrics.js';
import { nativeHasher } from './native-hasher.js';
import { optionalPeer } from './optional-peer.js';

export interface ServiceFromEnvOptions {
  logger?: Logger;
  /** Used when ADMIN_TOKEN is unset (the Node/Bun/Deno demo keeps a generated one). */
  adminToken?: string | null;
  /** Used when SECRET_KEY is unset. */
  secretKey?: string | null;
  /** Catalogue rows of the memory storage; default: the deterministic demo catalogue. */
  catalogueData?: CatalogueData;
  /**
   * Storage opened by the host itself (the Node host's embedded PGlite default); replaces the
   * one CATALOGUE_STORAGE / DATABASE_URL would choose. Its close() runs with the service's.
   */
  storage?: HostStorage;
  /** Key prefix of the Redis limiter (default `catalogue:limits`); tests use their own. */
  redisPrefix?: string;
  /** Apply pending migrations when storage is PostgreSQL (the Node host does; others migrate per deploy). */
  migrate?: boolean;
}

export interface HostStorage {
  catalogue: Catalogue;
  accounts: Accounts;
  description: string;
  /** false: accounts that forget on restart (the memory demo), so usage is not persisted either. Default true. */
  durable?: boolean;
  /** What GET /readyz checks of this storage (the database and its migrations). */
  probes?: readonly Probe[];
  /** What GET /metrics reads of this storage at scrape time (pool in-flight, outbox depth). */
  metricSources?: MetricSources;
  /** Called as soon as a graceful stop begins, before anything closes (the embedded PGlite marks its data-dir lock, so a restart waits for it). */
  stopping?(): void;
  close?(): Promise<void>;
}

export interface HostedService {
  service: Service;
  env: HostEnv;
  accounts: Accounts;
  /** Human-readable description of the storage and limiter, for the start banner. */
  storage: string;
  limiter: string;
  adminToken: string | null;
  /** True when the admin token is the demo's generated one (options.adminToken), not the operator's ADMIN_TOKEN. */
  adminTokenGenerated: boolean;
  /** false when the accounts forget on restart (the memory demo): the demo key is then not kept either. */
  durable: boolean;
  /** Closes database pools and Redis connections. */
  close(): Promise<void>;
  /**
   * The limiter's own periodic work alone (this process's buffered usage to the stores), for a
   * worker that leaves the rest of runJobs to another (hosts/node/src/cluster/worker.ts).
   */
  limiterJobs(now: Date): Promise<void>;
}

export async function createServiceFromEnv(source: Record<string, string | undefined>, options: ServiceFromEnvOptions = {}): Promise<HostedService> {
  const env = readEnv(source);
  const logger = options.logger ?? consoleLogger(env.logLevel);
  const closers: Array<() => Promise<void>> = [];
  const store =
    options.storage ??
    (env.storage === 'postgres' ? await postgresStorage(env, closers, options.migrate ?? false, logger) : await memoryStorage(options.catalogueData));
  if (options.storage?.close) closers.push(options.storage.close.bind(options.storage));
  const limits = await limiterFromEnv(env, store, logger, closers, options.redisPrefix);
  // Runs first at close (closers run in reverse): the limiter's last usage goes to the stores
  // before their connections close (docs/decisions.md §8).
  closers.push(async () => limits.limiter.close?.());
  const { billing, mailer } = await billingFromEnv(env, source, logger);
  const adminToken = env.adminToken ?? options.adminToken ?? null;

  const service = createService(
    {
      catalogue: store.catalogue,
      accounts: store.accounts,
      limiter: limits.limiter,
      logger,
      hasher: nativeHasher(),
      metrics: prometheusMetrics(store.metricSources),
      ...(billing ? { billing } : {}),
      ...(mailer ? { mailer } : {}),
      probes: [...(store.probes ?? []), ...(limits.probe ? [limits.probe] : [])],
    },
    {
      baseUrl: env.baseUrl,
      adminToken,
      secretKey: env.secretKey ?? options.secretKey ?? null,
      publicRateLimitPerMinute: env.publicRateLimitPerMinute,
      beaconRateLimitPerMinute: env.beaconRateLimitPerMinute,
      cutoverSunsetAt: env.cutoverSunsetAt,
      corsOrigins: env.corsOrigins,
    },
  );
  return {
    service,
    env,
    accounts: store.accounts,
    storage: store.description,
    limiter: limits.description,
    adminToken,
    adminTokenGenerated: env.adminToken === null && adminToken !== null,
    durable: store.durable !== false,
    close: async () => {
      for (const close of closers.reverse()) await close().catch(() => {});
    },
    limiterJobs: async (now) => limits.limiter.runJobs?.(now.getTime()),
  };
}

async function memoryStorage(data: CatalogueData | undefined): Promise<HostStorage> {
  // The generator is only loaded when no rows were given (it costs about a second).
  const rows =
    data ?? (await optionalPeer(['@catalogue/importer'], 'the in-memory demo catalogue', () => import('@catalogue/importer/generate'))).generateCatalogue();
  return {
    catalogue: createMemoryCatalogue(rows),
    accounts: createMemoryAccounts() as Accounts,
    durable: false,
    description: data ? 'in-memory catalogue' : 'in-memory demo catalogue',
  };
}

async function postgresStorage(env: HostEnv, closers: Array<() => Promise<void>>, migrate: boolean, logger: Logger): Promise<HostStorage> {
  const pg = await optionalPeer(['@catalogue/postgres'], 'DATABASE_URL', () => import('@catalogue/postgres'));
  const sql = pg.connectPostgres(env.databaseUrl as string, { max: env.databasePoolMax });
  closers.push(() => sql.end({ timeout: 5 }));
  // The first guardFor fixes the backstops of every port on this pool (backstops.ts).
  const guard = pg.guardFor(sql, { logger });
  const inFlight: Record<string, () => number> = { primary: () => guard.inFlight };
  const metricSources: MetricSources = {
    inFlight: () => Object.fromEntries(Object.entries(inFlight).map(([pool, read]) => [pool, read()])),
    outboxDepth: () => pg.outboxDepth(sql),
  };
  if (migrate) await pg.migrate(sql);
  const host = (url: string) => new URL(url).host;
  // The catalogue's generation (advanced by each import's finish()) and the master records kept
  // until the next one; CATALOGUE_CACHE_MB=0 keeps none.
  const generation = pg.watchCatalogueGeneration(sql, { logger });
  closers.push(() => generation.close());
  await generation.ready;
  const probes = [pg.postgresProbe(sql)];
  const recordCache = env.catalogueCacheMb > 0 ? new pg.RecordCache(generation, env.catalogueCacheMb * 1024 * 1024) : undefined;
  // The filter of the vocabulary that sends a typo to its corrections first, loaded from the
  // primary at each generation; CATALOGUE_TYPO_HINT_MB=0 keeps none.
  const vocabularyHint =
    env.catalogueTypoHintMb > 0 ? new pg.VocabularyHint(sql, generation, { maxBytes: env.catalogueTypoHintMb * 1024 * 1024, logger }) : undefined;
  if (vocabularyHint) closers.push(async () => vocabularyHint.close());
  const cached = { ...(recordCache ? { recordCache } : {}), ...(vocabularyHint ? { vocabularyHint } : {}) };
  if (env.databaseReplicaUrls.length === 0) {
    return {
      catalogue: pg.createPostgresCatalogue(sql, cached),
      accounts: pg.createPostgresAccounts(sql),
      description: `PostgreSQL ${host(env.databaseUrl as string)}`,
      probes,
      metricSources,
    };
  }
  // Catalogue reads on the replicas, each pool with backstops of its own; accounts on the primary.
  const replicas = env.databaseReplicaUrls.map((url) => {
    const replica = pg.connectPostgres(url, { max: env.databasePoolMax });
    closers.push(() => replica.end({ timeout: 5 }));
    const replicaGuard = pg.guardFor(replica, { logger });
    inFlight[host(url)] = () => replicaGuard.inFlight;
    return { name: host(url), sql: replica };
  });
  const replicated = pg.createReplicatedCatalogue(sql, replicas, { logger, generation, ...cached });
  closers.push(() => replicated.close());
  await replicated.ready;
  return {
    catalogue: replicated.catalogue,
    accounts: pg.createPostgresAccounts(sql),
    description: `PostgreSQL ${host(env.databaseUrl as string)}, catalogue reads on ${replicas.map((r) => r.name).join(', ')}`,
    probes,
    metricSources,
  };
}

async function limiterFromEnv(
  env: HostEnv,
  store: HostStorage,
  logger: Logger,
  closers: Array<() => Promise<void>>,
  prefix: string | undefined,
): Promise<{ limiter: Limiter; description: string; probe?: Probe }> {
  const accounts = store.accounts;
  if (env.redisUrl || env.redisSentinelName) {
    const setting = env.redisUrl ? 'REDIS_URL' : 'REDIS_SENTINELS';
    const [upstash, { createRedisClient }] = await optionalPeer(['@catalogue/upstash', 'ioredis', '@upstash/redis'], setting, () =>
      Promise.all([import('@catalogue/upstash'), import('@catalogue/upstash/tcp')]),
    );
    // A plain Redis or any node of a cluster (told apart when it first answers), or the primary Sentinel names.
    const client = await createRedisClient(
      env.redisUrl
        ? { url: env.redisUrl }
        : {
            sentinels: env.redisSentinels,
            name: env.redisSentinelName as string,
            ...(env.redisSentinelPassword ? { sentinelPassword: env.redisSentinelPassword } : {}),
            ...(env.redisPassword ? { password: env.redisPassword } : {}),
          },
    );
    closers.push(() => client.close());
    return {
      limiter: upstash.createRedisLimiter({ redis: client.commands, accounts, logger, ...(prefix ? { prefix } : {}) }),
      description: `redis (tcp${env.redisUrl ? '' : ', sentinel'}${client.mode() === 'cluster' ? ', cluster' : ''})`,
      probe: limitStoreProbe(() => client.check()),
    };
  }
  if (env.upstashUrl && env.upstashToken) {
    const [upstash, { Redis }] = await optionalPeer(['@catalogue/upstash', '@upstash/redis'], 'UPSTASH_REDIS_REST_URL', () =>
      Promise.all([import('@catalogue/upstash'), import('@upstash/redis')]),
    );
    const redis = new Redis({ url: env.upstashUrl, token: env.upstashToken });
    return {
      limiter: upstash.createRedisLimiter({ redis, accounts, logger, ...(prefix ? { prefix } : {}) }),
      description: 'upstash (rest)',
      probe: limitStoreProbe(() => redis.ping()),
    };
  }
  if (env.upstashUrl || env.upstashToken) throw new Error('UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN go together');
  // On a database, the in-process limiter's month counts are durable usage too (seeded at
  // start, flushed every minute and at close); the memory demo keeps them in memory only.
  if (store.durable === false) return { limiter: createMemoryLimiter(), description: 'in-process' };
  return { limiter: createMemoryLimiter({ durable: accounts, logger }), description: 'in-process, usage persisted' };
}

/** The limit store's readiness probe: a PING (every master's cluster state on a cluster); the message never carries the URL or token. */
function limitStoreProbe(ping: () => Promise<unknown>): Probe {
  return {
    name: 'limits',
    async check() {
      try {
        await ping();
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw new Error(`limit store unreachable${code ? ` (${code})` : ''}`);
      }
    },
  };
}

async function billingFromEnv(env: HostEnv, source: Record<string, string | undefined>, logger: Logger): Promise<{ billing?: Billing; mailer?: Mailer }> {
  // `log` mail is the default and needs no transport package: core's log mailer. Sign-in links
  // are printed whole only without DATABASE_URL (the embedded default, the memory demo), where
  // the one reading the log is the one signing in (docs/decisions.md §3).
  const showLinks = !env.databaseUrl;
  const mailNeeded = env.mailTransport !== null && env.mailTransport !== 'log';
  if (!env.stripeSecretKey && !mailNeeded) return { mailer: createLogMailer(logger, { showLinks }) };
  const stripe = await optionalPeer(
    ['@catalogue/stripe', 'stripe'],
    env.stripeSecretKey ? 'STRIPE_SECRET_KEY' : 'MAIL_TRANSPORT',
    () => import('@catalogue/stripe'),
  );
  const billing = stripe.stripeBillingFromEnv(source);
  const mailer = stripe.mailerFromTransport(env.mailTransport ?? 'log', { from: env.mailFrom, logger, showLinks });
  return { ...(billing ? { billing } : {}), ...(mailer ? { mailer } : {}) };
}
