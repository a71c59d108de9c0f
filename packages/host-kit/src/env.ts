/**
 * The configuration table of docs/decisions.md §1, read from the environment. Every host reads the
 * same names with the same defaults.
 */
import { type ProxyTrust, trustProxyOf } from './client-ip.js';
import { webConcurrencyOf } from './web-concurrency.js';

export type StorageChoice = 'memory' | 'postgres';

export interface HostEnv {
  port: number;
  /** WEB_CONCURRENCY: the Node host's worker processes (web-concurrency.ts); 1 is one process, no workers. */
  webConcurrency: number;
  baseUrl: string;
  /**
   * BASE_URL's origin when BASE_URL is set to an absolute http(s) URL: the origin of every
   * request URL the hosts build (request-url.ts). Null otherwise: the request's Host decides.
   */
  publicOrigin: string | null;
  /**
   * CATALOGUE_STORAGE: `memory` runs the in-memory demo (generated catalogue, memory accounts)
   * even when DATABASE_URL is set; `postgres` requires DATABASE_URL. Unset: `postgres` when
   * DATABASE_URL is set, otherwise `memory`.
   */
  storage: StorageChoice;
  databaseUrl: string | null;
  /** DATABASE_REPLICA_URLS: read replicas for the catalogue (comma-separated); empty when unset. */
  databaseReplicaUrls: string[];
  dataDir: string;
  databasePoolMax: number;
  /** CATALOGUE_CACHE_MB: master records kept per process until the next import (0: none). */
  catalogueCacheMb: number;
  /** CATALOGUE_TYPO_HINT_MB: the bound of the process's filter of the vocabulary that sends typos to their corrections first (0: none). */
  catalogueTypoHintMb: number;
  /** REDIS_URL: a Redis, or any node of a Redis Cluster (detected at start, @catalogue/upstash redis-client.ts). */
  redisUrl: string | null;
  /** REDIS_SENTINELS: the sentinels (`host:port`, comma-separated) to ask for the primary; empty when unset. */
  redisSentinels: Array<{ host: string; port: number }>;
  /** REDIS_SENTINEL_NAME: the primary's name the sentinels monitor (required with REDIS_SENTINELS). */
  redisSentinelName: string | null;
  /** REDIS_SENTINEL_PASSWORD: the sentinels' own AUTH password (`requirepass` of sentinel.conf), when they have one. */
  redisSentinelPassword: string | null;
  /** REDIS_PASSWORD: the primary's and replicas' password behind Sentinel (with REDIS_URL the URL carries it). */
  redisPassword: string | null;
  upstashUrl: string | null;
  upstashToken: string | null;
  adminToken: string | null;
  secretKey: string | null;
  publicRateLimitPerMinute: number;
  beaconRateLimitPerMinute: number;
  /** TRUST_PROXY compiled (client-ip.ts): which X-Forwarded-For hops are our proxies; null trusts none. */
  trustProxy: ProxyTrust | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  cutoverSunsetAt: string | null;
  stripeSecretKey: string | null;
  mailTransport: string | null;
  mailFrom: string;
  /** CATALOGUE_DEMO_KEY=true: issue and print the demo key on a DATABASE_URL too (never by default). */
  demoKey: boolean;
  /** CORS_ORIGINS: origins whose pages may call the API, or `['*']`; empty (none) when unset. */
  corsOrigins: string[];
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function replicaUrls(value: string | undefined, primary: string | undefined): string[] {
  const urls = (value ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length > 0 && !primary) throw new Error('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)');
  for (const url of urls) {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:')
      throw new Error(`DATABASE_REPLICA_URLS: not a postgres:// URL: "${url.replace(/\/\/[^@/]*@/, '//…@')}"`);
  }
  return urls;
}

/**
 * CORS_ORIGINS: `*`, or comma-separated origins, each exactly as a browser sends it
 * (`https://app.example`, `http://localhost:3000`; a trailing slash is dropped). `null` is
 * refused: every sandboxed frame and file: page shares that origin.
 */
function corsOrigins(value: string | undefined): string[] {
  const listed = (value ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
  if (listed.includes('*')) {
    if (listed.length > 1) throw new Error('CORS_ORIGINS: * allows every origin; list no others beside it');
    return ['*'];
  }
  for (const origin of listed) {
    if (origin === 'null') throw new Error('CORS_ORIGINS: "null" cannot be allowed (every sandboxed frame and file: page sends it)');
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== origin)
      throw new Error(`CORS_ORIGINS: not an origin (scheme://host[:port], lowercase, no path): "${origin}"`);
  }
  return listed;
}

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

function storageOf(env: Record<string, string | undefined>): StorageChoice {
  const chosen = env.CATALOGUE_STORAGE || (env.DATABASE_URL ? 'postgres' : 'memory');
  if (chosen !== 'memory' && chosen !== 'postgres') throw new Error(`CATALOGUE_STORAGE must be memory or postgres, got "${chosen}"`);
  if (chosen === 'postgres' && !env.DATABASE_URL) throw new Error('CATALOGUE_STORAGE=postgres needs DATABASE_URL');
  return chosen;
}

/**
 * BASE_URL, when set, is the public origin of links, mails and the dashboard's Origin check, so it
 * must be an absolute http(s) URL: `/` made every link relative, the mails' links unusable and
 * the session routes answer 500 (issue 30). Unset, the request's Host decides request URLs.
 */
function publicOriginOf(baseUrl: string | undefined): string | null {
  if (!baseUrl) return null;
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    // refused below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.host === '')
    throw new Error(`BASE_URL must be an absolute http(s) URL, such as https://api.example.com, got "${baseUrl}"`);
  return url.origin;
}

/** The shortest ADMIN_TOKEN a host starts with: 32 characters (the generated one is 32 base64url characters, 192 bits). */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

/** ADMIN_TOKEN, refused when short (a guessable bearer of every operator route); never echoed. */
function adminTokenOf(value: string | undefined): string | null {
  if (!value) return null;
  if (value.length < ADMIN_TOKEN_MIN_LENGTH)
    throw new Error(`ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters (it has ${value.length}); generate one with: openssl rand -base64 32`);
  return value;
}

/**
 * REDIS_SENTINELS (+ REDIS_SENTINEL_NAME): the limit store behind Redis Sentinel. One way to name
 * the store at a time: REDIS_URL beside it is refused rather than one of them silently ignored.
 */
function redisSentinels(
  env: Record<string, string | undefined>,
): Pick<HostEnv, 'redisSentinels' | 'redisSentinelName' | 'redisSentinelPassword' | 'redisPassword'> {
  const listed = (env.REDIS_SENTINELS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const name = env.REDIS_SENTINEL_NAME || null;
  const password = env.REDIS_SENTINEL_PASSWORD || null;
  const dataPassword = env.REDIS_PASSWORD || null;
  if (listed.length === 0) {
    if (name || password || dataPassword)
      throw new Error('REDIS_SENTINEL_NAME, REDIS_SENTINEL_PASSWORD and REDIS_PASSWORD need REDIS_SENTINELS (REDIS_URL carries its own password)');
    return { redisSentinels: [], redisSentinelName: null, redisSentinelPassword: null, redisPassword: null };
  }
  if (env.REDIS_URL) throw new Error('REDIS_URL and REDIS_SENTINELS both name the limit store: set one of them');
  if (!name) throw new Error('REDIS_SENTINELS needs REDIS_SENTINEL_NAME (the primary’s name the sentinels monitor)');
  const sentinels = listed.map((entry) => {
    const match = /^(.+):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) throw new Error(`REDIS_SENTINELS: not host:port: "${entry}"`);
    return { host: (match[1] as string).replace(/^\[(.*)\]$/, '$1'), port };
  });
  return { redisSentinels: sentinels, redisSentinelName: name, redisSentinelPassword: password, redisPassword: dataPassword };
}

export function readEnv(env: Record<string, string | undefined>): HostEnv {
  const port = int(env.PORT, 8080, 'PORT');
  const logLevel = (env.LOG_LEVEL ?? 'info') as HostEnv['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new Error(`LOG_LEVEL must be debug, info, warn or error, got "${logLevel}"`);
  return {
    port,
    webConcurrency: webConcurrencyOf(env.WEB_CONCURRENCY),
    baseUrl: (env.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    publicOrigin: publicOriginOf(env.BASE_URL),
    storage: storageOf(env),
    databaseUrl: env.DATABASE_URL || null,
    databaseReplicaUrls: replicaUrls(env.DATABASE_REPLICA_URLS, env.DATABASE_URL),
    dataDir: env.CATALOGUE_DATA_DIR || './.data',
    databasePoolMax: int(env.DATABASE_POOL_MAX, 10, 'DATABASE_POOL_MAX'),
    catalogueCacheMb: int(env.CATALOGUE_CACHE_MB, 64, 'CATALOGUE_CACHE_MB'),
    catalogueTypoHintMb: int(env.CATALOGUE_TYPO_HINT_MB, 16, 'CATALOGUE_TYPO_HINT_MB'),
    redisUrl: env.REDIS_URL || null,
    ...redisSentinels(env),
    upstashUrl: env.UPSTASH_REDIS_REST_URL || null,
    upstashToken: env.UPSTASH_REDIS_REST_TOKEN || null,
    adminToken: adminTokenOf(env.ADMIN_TOKEN),
    secretKey: env.SECRET_KEY || null,
    publicRateLimitPerMinute: int(env.PUBLIC_RATE_LIMIT_PER_MINUTE, 60, 'PUBLIC_RATE_LIMIT_PER_MINUTE'),
    beaconRateLimitPerMinute: int(env.BEACON_RATE_LIMIT_PER_MINUTE, 600, 'BEACON_RATE_LIMIT_PER_MINUTE'),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    logLevel,
    cutoverSunsetAt: env.CUTOVER_SUNSET_AT || null,
    stripeSecretKey: env.STRIPE_SECRET_KEY || null,
    mailTransport: env.MAIL_TRANSPORT || null,
    mailFrom: env.MAIL_FROM || 'keys@localhost',
    demoKey: flag(env.CATALOGUE_DEMO_KEY, 'CATALOGUE_DEMO_KEY'),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
  };
}
