/**
 * A route is data: method, path, who may call it, its strict query schema, its handler and,
 * for a v1 route with no v2 twin, where it went. The same list drives dispatch, 405 `Allow`
 * answers, the OpenAPI documents, the cutover and the contract walk.
 */
import type * as v from 'valibot';
import type { ResolvedConfig } from '../config.js';
import type { ApiKey, CallOptions, Customer, LimitPolicy, Ports } from '../ports/index.js';
import type { QueryOutput, QuerySpec } from '../validation/query.js';
import type { Reply } from './json.js';
import type { CachePolicy } from './representation.js';

export type Method = 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

/**
 * key: X-API-Key gate + limiter. key-uncounted: the gate without counting (usage).
 * public: per-IP limit. admin: ADMIN_TOKEN bearer. open: nothing (beacons, webhooks, pages
 * check their own credentials).
 */
export type Access = 'key' | 'key-uncounted' | 'public' | 'admin' | 'open';

export interface Principal {
  key: ApiKey;
  customer: Customer;
  policy: LimitPolicy & { batchMax: number };
}

/**
 * What a handler sees (the request's RequestEvent, http/request-event.ts): `Q` its strict query,
 * `A` the slices of Accounts it uses (docs/architecture.md, "Ports"), none by default.
 */
export interface RouteContext<Q = Record<string, unknown>, A = unknown> {
  request: Request;
  url: URL;
  /** Path parameters, percent-decoded; null where decoding failed. */
  params: Record<string, string | null>;
  query: Q;
  requestId: string;
  /** Epoch ms from the injected clock at the start of the request. */
  now: number;
  signal: AbortSignal;
  /** The request lifetime (deadline, client disconnect): pass it to every port call; its `signal` is created only if the port reads it. */
  lifetime: CallOptions;
  ports: Ports<A>;
  config: ResolvedConfig;
  /** The authenticated caller on `key` routes. */
  principal: Principal | null;
  /** '/api/v1' or '/api/v2': the version prefix the request came in on. */
  base: string;
  /** Every route of the service (the root index, the OpenAPI documents and wayfind read it). */
  routes: readonly RouteDef[];
  /** The client's IP as the host saw it (after TRUST_PROXY); 'unknown' when the host did not say. */
  clientIp: string;
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The context of a handler that uses the Accounts slices `A` (a route declares them on its
 * handler: `handler({ ports }: WithAccounts<DashboardState & CustomersAndKeys>)`); `Q` its query.
 */
export type WithAccounts<A, Q = Record<string, unknown>> = RouteContext<Q, A>;

export interface ResponseDoc {
  description: string;
  schema?: v.GenericSchema;
  headers?: string[];
}

/**
 * A demoted route: a v1 route with no v2 twin, whose data moved into a v2 facet. From the v1
 * sunset it answers 410 `gone` (docs/decisions.md §7); before, its answers link the successor.
 */
export interface Deprecation {
  /** The v2 path (and query) a caller goes to instead, from this request's params and query. */
  successor(params: Record<string, string | null>, query: URLSearchParams): string;
  /** Where the data sits in v2: the 410 body, the migration guide and wayfind say it. */
  where: string;
}

export interface RouteDef<S extends QuerySpec = QuerySpec, A = unknown> {
  method: Method;
  path: string;
  access: Access;
  /** Strict query schema; absent means no query parameter is accepted. */
  query?: S;
  summary: string;
  description?: string;
  /** The OpenAPI operationId, when the one derived from method and path (openapi.ts) reads badly. */
  operationId?: string;
  tags: string[];
  /** Documented request body (JSON). */
  body?: { schema: v.GenericSchema; description: string; maxBytes?: number };
  /**
   * A body the route reads as bytes and validates by other means (the Stripe webhook: its
   * signature), documented with a JSON Schema of its sender's (openapi.ts) instead of ours.
   */
  foreignBody?: { name: string; description: string; schema: Record<string, unknown>; example: unknown };
  /** Request headers the route reads besides its credentials, documented as header parameters. */
  headers?: Array<{ name: string; description: string; required: boolean; example: string }>;
  responses: Record<number, ResponseDoc>;
  /** Error codes this route can answer with, besides the shared ones of its access kind. */
  errors?: string[];
  /**
   * A catalogue read whose 200 a client may keep: `Cache-Control: private, max-age=…`, a strong
   * ETag and 304 on If-None-Match (http/representation.ts). Absent: `Cache-Control: no-store`.
   */
  cache?: CachePolicy;
  /** Set on a demoted v1 route (see Deprecation). */
  deprecation?: Deprecation;
  /** Answer with json()/html() (a Reply); a raw Response is for redirects and empty bodies. */
  handler(ctx: RouteContext<QueryOutput<S>, A>): Promise<Response | Reply> | Response | Reply;
}

/** Keeps the query type of each route while collecting heterogeneous routes in one list. */
export function route<S extends QuerySpec, A = unknown>(def: RouteDef<S, A>): RouteDef {
  return def as unknown as RouteDef;
}

/**
 * A group of routes whose paths are relative (`/search`, or `` for the base itself) placed
 * under `base`, like Hono's `app.route(base, sub)`: the catalogue and beacon routes are defined
 * once and mounted on /api/v1 and /api/v2.
 */
export function mount(base: string, group: readonly RouteDef[]): RouteDef[] {
  return group.map((def) => ({ ...def, path: base + def.path }));
}
