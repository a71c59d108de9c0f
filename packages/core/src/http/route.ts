/**
 * A route is data: method, path, who may call it, its strict query schema and its handler.
 * The same list drives dispatch, 405 `Allow` answers and the OpenAPI documents.
 */
import type * as v from 'valibot';
import type { ResolvedConfig } from '../config.js';
import type { ApiKey, CallOptions, Customer, LimitPolicy, Ports } from '../ports/index.js';
import type { QueryOutput, QuerySpec } from '../validation/query.js';
import type { Reply } from './json.js';

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

export interface RouteContext<Q = Record<string, unknown>> {
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
  ports: Ports;
  config: ResolvedConfig;
  /** The authenticated caller on `key` routes. */
  principal: Principal | null;
  /** '/api/v1' or '/api/v2': the version prefix the request came in on. */
  base: string;
  /** The client's IP as the host saw it (after TRUST_PROXY); 'unknown' when the host did not say. */
  clientIp: string;
  waitUntil(promise: Promise<unknown>): void;
}

export interface ResponseDoc {
  description: string;
  schema?: v.GenericSchema;
  headers?: string[];
}

export interface RouteDef<S extends QuerySpec = QuerySpec> {
  method: Method;
  path: string;
  access: Access;
  /** Strict query schema; absent means no query parameter is accepted. */
  query?: S;
  summary: string;
  description?: string;
  tags: string[];
  /** Documented request body (JSON). */
  body?: { schema: v.GenericSchema; description: string; maxBytes?: number };
  responses: Record<number, ResponseDoc>;
  /** Error codes this route can answer with, besides the shared ones of its access kind. */
  errors?: string[];
  /** Answer with json()/html() (a Reply); a raw Response is for redirects and empty bodies. */
  handler(ctx: RouteContext<QueryOutput<S>>): Promise<Response | Reply> | Response | Reply;
}

/** Keeps the query type of each route while collecting heterogeneous routes in one list. */
export function route<S extends QuerySpec>(def: RouteDef<S>): RouteDef {
  return def as unknown as RouteDef;
}
