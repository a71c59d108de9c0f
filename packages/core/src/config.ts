/** What the service needs to know besides its ports. Hosts build it from the environment. */
export interface ServiceConfig {
  /** Public origin used in `_links` and `Link` headers, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Bearer token of `/api/v1/admin/*`; without one the admin routes answer 404. */
  adminToken?: string | null;
  /** Per-IP burst of the public routes (PUBLIC_RATE_LIMIT_PER_MINUTE). */
  publicRateLimitPerMinute?: number;
  /** Wall-clock deadline of one request in ms (15 s by the spec). */
  requestDeadlineMs?: number;
}

export interface ResolvedConfig {
  baseUrl: string;
  adminToken: string | null;
  publicRateLimitPerMinute: number;
  requestDeadlineMs: number;
}

export function resolveConfig(config: ServiceConfig): ResolvedConfig {
  return {
    baseUrl: config.baseUrl.replace(/\/+$/, ''),
    adminToken: config.adminToken || null,
    publicRateLimitPerMinute: config.publicRateLimitPerMinute ?? 60,
    requestDeadlineMs: config.requestDeadlineMs ?? 15_000,
  };
}
