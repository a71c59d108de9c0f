/**
 * The v1 → v2 cutover (docs/decisions.md §7), driven by CUTOVER_SUNSET_AT and the injected clock.
 *
 * Every /api/v1 route is one of three kinds:
 * - keeper: it has a /api/v2 twin with the same shape (found in the route list, not listed by hand);
 * - demoted: no v2 equivalent; its data moved into a v2 artist facet, and its definition says
 *   where (`RouteDef.deprecation`);
 * - operational: everything else under /api/v1 (usage, admin keys, wayfind, webhook): untouched.
 *
 * Phases, with S the sunset instant: before S−60d nothing; from S−60d the root index links the
 * migration guide; from S−30d keeper and demoted answers carry Deprecation, Sunset and a
 * successor Link; from S keepers answer 308 to the v2 path and demoted routes 410 `gone`.
 */
import type { ResolvedConfig } from './config.js';
import { ApiError } from './errors/api-error.js';
import type { RouteDef } from './http/route.js';

export type RouteKind = 'keeper' | 'demoted' | 'operational';
export type CutoverPhase = 'none' | 'guide' | 'deprecation' | 'sunset';

const DAY_MS = 86_400_000;
export const GUIDE_LEAD_MS = 60 * DAY_MS;
export const DEPRECATION_LEAD_MS = 30 * DAY_MS;
export const MIGRATION_GUIDE_PATH = '/docs/migration';

const V1 = '/api/v1';
const V2 = '/api/v2';

/** Parses CUTOVER_SUNSET_AT; a value that is set but not a date is a misconfiguration. */
export function sunsetInstant(config: Pick<ResolvedConfig, 'cutoverSunsetAt'>): number | null {
  if (!config.cutoverSunsetAt) return null;
  const at = Date.parse(config.cutoverSunsetAt);
  if (Number.isNaN(at)) throw new Error(`CUTOVER_SUNSET_AT is not an ISO date: ${config.cutoverSunsetAt}`);
  return at;
}

export function cutoverPhase(sunsetAt: number | null, now: number): CutoverPhase {
  if (sunsetAt === null) return 'none';
  if (now >= sunsetAt) return 'sunset';
  if (now >= sunsetAt - DEPRECATION_LEAD_MS) return 'deprecation';
  if (now >= sunsetAt - GUIDE_LEAD_MS) return 'guide';
  return 'none';
}

/** The v1 path of a v2 twin: /api/v1/x → /api/v2/x. */
export function v2PathOf(v1Path: string): string {
  return V2 + v1Path.slice(V1.length);
}

export function isV1Path(path: string): boolean {
  return path === V1 || path.startsWith(`${V1}/`);
}

/** Classifies one v1 route against the route list (a keeper is a route with a /api/v2 twin). */
export function routeKind(def: Pick<RouteDef, 'method' | 'path' | 'deprecation'>, routes: readonly Pick<RouteDef, 'method' | 'path'>[]): RouteKind {
  if (def.deprecation) return 'demoted';
  const twin = v2PathOf(def.path);
  return routes.some((r) => r.path === twin && r.method === def.method) ? 'keeper' : 'operational';
}

/** Where a v1 request goes in v2 (path and query), or null for an operational route. */
export function successorOf(def: Pick<RouteDef, 'deprecation'>, kind: RouteKind, params: Record<string, string | null>, url: URL): string | null {
  if (kind === 'keeper') return v2PathOf(url.pathname) + url.search;
  if (kind === 'demoted' && def.deprecation) return def.deprecation.successor(params, url.searchParams);
  return null;
}

/** IMF-fixdate (RFC 9110 §5.6.7), e.g. `Tue, 01 Sep 2026 00:00:00 GMT`. */
export function httpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

export interface CutoverDecision {
  /** Headers every answer to this request carries (Deprecation, Sunset, Link). */
  headers: Record<string, string> | null;
  /** Set from the sunset instant: the 308 answer of a keeper. */
  redirect: Response | null;
  /** Set from the sunset instant: the 410 `gone` refusal of a demoted route. */
  gone: ApiError | null;
}

export interface Cutover {
  readonly sunsetAt: number | null;
  decide(def: RouteDef, params: Record<string, string | null>, url: URL, now: number): CutoverDecision;
}

const UNTOUCHED: CutoverDecision = { headers: null, redirect: null, gone: null };

export function createCutover(config: ResolvedConfig, routes: readonly RouteDef[]): Cutover {
  const sunsetAt = sunsetInstant(config);
  const kinds = new Map<RouteDef, RouteKind>();
  for (const def of routes) if (isV1Path(def.path)) kinds.set(def, routeKind(def, routes));

  return {
    sunsetAt,
    decide(def, params, url, now) {
      const kind = kinds.get(def);
      const phase = cutoverPhase(sunsetAt, now);
      if (!kind || kind === 'operational' || sunsetAt === null || phase === 'none' || phase === 'guide') return UNTOUCHED;
      const successor = config.baseUrl + (successorOf(def, kind, params, url) as string);
      const headers = { deprecation: 'true', sunset: httpDate(sunsetAt), link: `<${successor}>; rel="successor-version"` };
      if (phase === 'deprecation') return { headers, redirect: null, gone: null };
      if (kind === 'keeper') {
        // Built by hand: Response.redirect() has immutable headers, and the pipeline adds more.
        return { headers: null, redirect: new Response(null, { status: 308, headers: { ...headers, location: successor } }), gone: null };
      }
      const where = def.deprecation?.where ?? '';
      return {
        headers: null,
        redirect: null,
        gone: new ApiError(
          'gone',
          {
            message: `${def.method} ${def.path.replace(/:(\w+)/g, '{$1}')} was retired at the v1 sunset (${new Date(sunsetAt).toISOString()}).`,
            where,
            successor,
            migration_guide: config.baseUrl + MIGRATION_GUIDE_PATH,
          },
          headers,
        ),
      };
    },
  };
}
