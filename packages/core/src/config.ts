/** What the service needs to know besides its ports. Hosts build it from the environment. */
export interface ServiceConfig {
  /** Public origin used in `_links` and `Link` headers, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Bearer token of `/api/v1/admin/*`; without one the admin routes answer 404. */
  adminToken?: string | null;
  /** Per-IP burst of the public routes (PUBLIC_RATE_LIMIT_PER_MINUTE). */
  publicRateLimitPerMinute?: number;
  /** Per-IP burst of the beacon routes (BEACON_RATE_LIMIT_PER_MINUTE). */
  beaconRateLimitPerMinute?: number;
  /** Wall-clock deadline of one request in ms (15 s by the spec). */
  requestDeadlineMs?: number;
  /** SECRET_KEY: 32+ bytes (base64 or hex) for HMAC tokens (beacons, sessions) and AES-GCM sealing. */
  secretKey?: string | null;
  /** CUTOVER_SUNSET_AT: ISO date of the v1 sunset; setting it flips the cutover flag. */
  cutoverSunsetAt?: string | null;
  /** CORS_ORIGINS: origins whose pages may call the API (`*`: any); default none (http/cors.ts). */
  corsOrigins?: readonly string[] | null;
}

export interface ResolvedConfig {
  baseUrl: string;
  adminToken: string | null;
  publicRateLimitPerMinute: number;
  beaconRateLimitPerMinute: number;
  requestDeadlineMs: number;
  secretKey: string | null;
  cutoverSunsetAt: string | null;
  corsOrigins: readonly string[];
}

export function resolveConfig(config: ServiceConfig): ResolvedConfig {
  return {
    baseUrl: config.baseUrl.replace(/\/+$/, ''),
    adminToken: config.adminToken || null,
    publicRateLimitPerMinute: config.publicRateLimitPerMinute ?? 60,
    beaconRateLimitPerMinute: config.beaconRateLimitPerMinute ?? 600,
    requestDeadlineMs: config.requestDeadlineMs ?? 15_000,
    secretKey: config.secretKey || null,
    cutoverSunsetAt: config.cutoverSunsetAt || null,
    corsOrigins: config.corsOrigins ?? [],
  };
}
