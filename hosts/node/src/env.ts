/**
 * The configuration table of decisions.md §1, read from the environment. Every host reads the
 * same names with the same defaults.
 */
export interface HostEnv {
  port: number;
  baseUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  databasePoolMax: number;
  redisUrl: string | null;
  upstashUrl: string | null;
  upstashToken: string | null;
  adminToken: string | null;
  secretKey: string | null;
  publicRateLimitPerMinute: number;
  trustProxy: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  cutoverSunsetAt: string | null;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

export function readEnv(env: Record<string, string | undefined>): HostEnv {
  const port = int(env.PORT, 8080, 'PORT');
  const logLevel = (env.LOG_LEVEL ?? 'info') as HostEnv['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw new Error(`LOG_LEVEL must be debug, info, warn or error, got "${logLevel}"`);
  return {
    port,
    baseUrl: (env.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL || null,
    dataDir: env.CATALOGUE_DATA_DIR || './.data',
    databasePoolMax: int(env.DATABASE_POOL_MAX, 10, 'DATABASE_POOL_MAX'),
    redisUrl: env.REDIS_URL || null,
    upstashUrl: env.UPSTASH_REDIS_REST_URL || null,
    upstashToken: env.UPSTASH_REDIS_REST_TOKEN || null,
    adminToken: env.ADMIN_TOKEN || null,
    secretKey: env.SECRET_KEY || null,
    publicRateLimitPerMinute: int(env.PUBLIC_RATE_LIMIT_PER_MINUTE, 60, 'PUBLIC_RATE_LIMIT_PER_MINUTE'),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel,
    cutoverSunsetAt: env.CUTOVER_SUNSET_AT || null,
  };
}
