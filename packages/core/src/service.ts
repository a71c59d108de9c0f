/**
 * createService(ports, config) → { fetch, runJobs }: the whole API as one pure fetch handler.
 *
 * The routes are data: the API's (routes/index.ts, one group a line) and the web pages'
 * (web/index.ts). Path of a request: request id → route match (http/router.ts: 404, 405 with
 * Allow, OPTIONS) → cutover (versioning.ts: deprecation headers, 308, 410) → the request
 * lifetime starts (15 s deadline and client disconnect; every port call gets it) → access check
 * by the route's kind (gate/admission.ts: key gate + limiter, per-IP limit, admin token) →
 * strict query validation → the route's handler → headers (rate limit, cutover, request id) →
 * the concurrency slot released off the response path (the host's waitUntil). Every error
 * becomes the spec's body in one place (`errorResponse`). docs/architecture.md walks it.
 */
import { type ResolvedConfig, resolveConfig, type ServiceConfig } from './config.js';
import { consoleLogger, loggingAlarm, noMetrics, pureHasher, systemClock, throttledAlarm } from './defaults.js';
import { ApiError, errorResponse } from './errors/api-error.js';
import { type Admission, admitKey, admitPublic, checkAdmin, keyGate } from './gate/admission.js';
import { invalidatingAccounts } from './gate/auth-invalidation.js';
import { beaconSignerFor } from './gate/beacon-token.js';
import { FailOpenWatch, withFailOpenCheck } from './gate/fail-open-watch.js';
import { KeyCache } from './gate/key-cache.js';
import { addCorsHeaders, corsPolicyOf, preflightHeaders } from './http/cors.js';
import { DeadlineQueue, type RequestLifetime, requestAborted } from './http/deadline.js';
import { finalize, Reply } from './http/json.js';
import { represent } from './http/representation.js';
import { newRequestId } from './http/request-id.js';
import type { Method, Principal, RouteContext, RouteDef } from './http/route.js';
import { createRouter } from './http/router.js';
import { securityHeaders } from './http/security-headers.js';
import { runJobs } from './jobs.js';
import type { Ports, PortsInput } from './ports/index.js';
import { API_ROUTES } from './routes/index.js';
import { parseQuery, type RawQuery, rawQueryOf } from './validation/query.js';
import { createCutover } from './versioning.js';
import { WEB_ROUTES } from './web/index.js';

export interface RequestContextInput {
  /** Client IP as the host sees it (after TRUST_PROXY handling). */
  clientIp?: string;
  /** Keeps the runtime alive for work finished after the response (Deno Deploy, Lambda, workers). */
  waitUntil?(promise: Promise<unknown>): void;
}

export interface Service {
  fetch(request: Request, context?: RequestContextInput): Promise<Response>;
  /** Periodic work: grace expiry, usage persistence, mail outbox, overage. Call every minute. */
  runJobs(now?: Date): Promise<void>;
  readonly routes: readonly RouteDef[];
  readonly config: ResolvedConfig;
}

export function createService(input: PortsInput, serviceConfig: ServiceConfig): Service {
  const clock = input.clock ?? systemClock;
  const logger = input.logger ?? consoleLogger();
  const alarm = throttledAlarm(input.alarm ?? loggingAlarm(logger), clock);
  // A limiter that proves accounts epochs lets the gate cache key lookups (gate/key-cache.ts);
  // every change the gate reads then moves the epoch on (gate/auth-invalidation.ts).
  const { limiter } = input;
  const keyCache = limiter.bumpAuthEpoch ? new KeyCache() : null;
  const accounts = keyCache
    ? invalidatingAccounts(input.accounts, limiter as typeof limiter & { bumpAuthEpoch(): Promise<void> }, keyCache, logger, alarm)
    : input.accounts;
  // A limiter that can fail is watched for failing open, and /readyz's `limits` check asks the
  // watch (gate/fail-open-watch.ts, docs/decisions.md §8); the in-process one cannot fail.
  const watch = limiter.inProcess ? null : new FailOpenWatch(clock, alarm);
  const probes = watch ? withFailOpenCheck(input.probes ?? [], watch) : input.probes;
  // What the key gate keeps between requests: the cache, the lookups in flight, the watch.
  const gate = keyGate({ cache: keyCache, watch });
  const ports: Ports = {
    ...input,
    accounts,
    clock,
    logger,
    alarm,
    hasher: input.hasher ?? pureHasher,
    metrics: input.metrics ?? noMetrics,
    ...(probes ? { probes } : {}),
  };
  const config = resolveConfig(serviceConfig);
  // A SECRET_KEY that is set but malformed or short stops the service here, not at the first search.
  beaconSignerFor(config.secretKey);
  const routes: readonly RouteDef[] = [...API_ROUTES, ...WEB_ROUTES];
  // Admin routes without an ADMIN_TOKEN are not served at all: their paths answer 404, and a
  // path shared with other methods leaves the admin method out of 405's Allow.
  const router = createRouter(routes.filter((def) => def.access !== 'admin' || config.adminToken));
  const deadlines = new DeadlineQueue(config.requestDeadlineMs);
  const cutover = createCutover(config, routes);
  const cors = corsPolicyOf(config.corsOrigins);
  const hardening = securityHeaders(config.baseUrl);

  /**
   * `extra` collects the headers every answer to this request carries — request id, cutover
   * (Deprecation, Sunset, Link), rate limit — for answers and refusals alike.
   */
  async function handle(
    request: Request,
    context: RequestContextInput | undefined,
    requestId: string,
    extra: Record<string, string>,
    trace: RequestTrace,
  ): Promise<Response | Reply> {
    const url = new URL(request.url);
    const match = router.match(url);
    if (!match) throw new ApiError('route_not_found', { message: `no route for ${url.pathname}` });

    const def = match.byMethod.get(request.method === 'HEAD' ? 'GET' : (request.method as Method));
    trace.route = def ? def.path : null;
    if (!def) {
      if (request.method === 'OPTIONS') {
        // A CORS preflight from an allowed origin learns the methods, headers and max age;
        // any other OPTIONS only the Allow list. It reaches no gate, so it counts nowhere.
        if (trace.corsAllowed && request.headers.has('access-control-request-method')) preflightHeaders(match.allow, extra);
        return new Response(null, { status: 204, headers: { allow: match.allow } });
      }
      throw new ApiError('method_not_allowed', { allow: match.allow.split(', ') }, { allow: match.allow });
    }

    const now = clock.now();
    const versioned = cutover.decide(def, match.params, url, now);
    if (versioned.headers) Object.assign(extra, versioned.headers);
    if (versioned.redirect) return versioned.redirect;
    if (versioned.gone) throw versioned.gone;
    const lifetime = deadlines.start(request);
    const state = new RequestState(request, url, match.params, requestId, now, lifetime, context, trace);
    try {
      // One race covers admission and handler: the deadline is per request, not per step.
      const answer = await lifetime.race(admitAndAnswer(def, state, extra));
      return answer instanceof Reply ? represent(answer, request, def.cache, ports.hasher, extra) : answer;
    } finally {
      lifetime.dispose();
      // An admission that outlives the deadline frees its own slot (admitAndAnswer).
      if (state.release) keepAlive(context, state.release());
    }
  }

  async function admitAndAnswer(def: RouteDef, state: RequestState, extra: Record<string, string>): Promise<Response | Reply> {
    const admission = await admit(def, state);
    if (state.lifetime.ended) {
      // The caller already has its 504: free the slot now, and never start a handler (nor
      // its side effects) for a request that is over.
      if (admission.release) keepAlive(state.context, admission.release());
      throw requestAborted();
    }
    state.release = admission.release;
    state.trace.admittedAt = performance.now();
    if (admission.headers) Object.assign(extra, admission.headers);
    if (admission.principal) state.trace.keyPrefix = admission.principal.key.display_prefix;
    const ctx: RouteContext = new HandlerContext(state, state.search(def), admission.principal, ports, config, routes, keepAlive);
    return def.handler(ctx);
  }

  function admit(def: RouteDef, state: RequestState): Promise<Admission> {
    switch (def.access) {
      case 'key':
        return admitKey(state.request, ports, state.now, true, state.lifetime, gate);
      case 'key-uncounted':
        return admitKey(state.request, ports, state.now, false, state.lifetime, gate);
      case 'public':
        return admitPublic(state.context?.clientIp ?? 'unknown', ports, config, state.now);
      case 'admin':
        return checkAdmin(state.request, config, { ports, ip: state.context?.clientIp ?? 'unknown', now: state.now });
      case 'open':
        return Promise.resolve({ principal: null, headers: null, release: null });
    }
  }

  function keepAlive(context: RequestContextInput | undefined, promise: Promise<unknown>): void {
    const guarded = promise.catch((error: unknown) => {
      logger.log({ level: 'error', kind: 'background.error', error: describe(error) });
    });
    context?.waitUntil?.(guarded);
  }

  async function fetch(request: Request, context?: RequestContextInput): Promise<Response> {
    const started = performance.now();
    const trace = new RequestTrace();
    const requestId = newRequestId();
    trace.requestId = requestId;
    const extra: Record<string, string> = { 'x-request-id': requestId, ...hardening };
    const head = request.method === 'HEAD';
    // Without CORS_ORIGINS nothing here runs; with it, errors carry the CORS headers too.
    if (cors) trace.corsAllowed = addCorsHeaders(cors, request.headers.get('origin'), extra);
    try {
      return answered(request, trace, started, finalize(await handle(request, context, requestId, extra, trace), extra, head));
    } catch (error) {
      let failure: ApiError;
      if (error instanceof ApiError) {
        failure = error;
      } else {
        // Never leak the message or stack to the caller; the log keeps them, keyed by request id.
        logger.log({
          level: 'error',
          kind: 'request.internal_error',
          request_id: requestId,
          error: describe(error),
          stack: error instanceof Error ? error.stack : undefined,
        });
        failure = new ApiError('internal');
      }
      const response = errorResponse(failure, requestId, extra);
      return answered(request, trace, started, head ? new Response(null, { status: response.status, headers: response.headers }) : response);
    }
  }

  /** One access-log line and the request metrics per request (docs/decisions.md §8), then the answer. */
  function answered(request: Request, trace: RequestTrace, started: number, response: Response): Response {
    const seconds = (performance.now() - started) / 1000;
    logger.log({
      level: 'info',
      kind: 'http.access',
      request_id: trace.requestId,
      method: request.method,
      route: trace.route,
      status: response.status,
      ms: Math.round(seconds * 10_000) / 10,
      gate_ms: trace.admittedAt === 0 ? null : Math.round((trace.admittedAt - started) * 10) / 10,
      key_prefix: trace.keyPrefix,
    });
    ports.metrics.request(trace.route, request.method, response.status, seconds);
    return response;
  }

  return {
    fetch,
    routes,
    config,
    runJobs: (now) => runJobs(ports, now ?? new Date(clock.now()), config),
  };
}

/** What the pipeline learns of a request along the way, for its answer's last steps. */
class RequestTrace {
  requestId = '';
  /** The request's Origin is allowed by CORS_ORIGINS. */
  corsAllowed = false;
  /** The matched route's pattern (`/api/v1/masters/:id`), never the path: no ids in logs or labels. */
  route: string | null = null;
  /** The admitted key's 12-character display prefix (docs/decisions.md §3): never the key. */
  keyPrefix: string | null = null;
  /**
   * performance.now() when admission let the request through to its handler (0: it never got
   * there): the access line's `gate_ms`. `ms - gate_ms` is then the part of the request that
   * held its concurrency slot (the slot is released in the same turn as the line is written;
   * the Redis limiter sends that release at the turn's end).
   */
  admittedAt = 0;
}

/** One request's state between the steps of the pipeline. */
class RequestState {
  /** Frees the concurrency slot, once admission took one. */
  release: (() => Promise<void>) | null = null;

  constructor(
    readonly request: Request,
    readonly url: URL,
    readonly params: Record<string, string | null>,
    readonly requestId: string,
    readonly now: number,
    readonly lifetime: RequestLifetime,
    readonly context: RequestContextInput | undefined,
    readonly trace: RequestTrace,
  ) {}

  /** The strict query of `def`; a URL without a query string skips URLSearchParams entirely. */
  search(def: RouteDef): Record<string, unknown> {
    if (this.url.search === '') return def.query ? parseQuery(EMPTY_QUERY, def.query) : NO_PARAMS;
    return parseQuery(rawQueryOf(this.url.searchParams) as RawQuery, def.query ?? {});
  }
}

const EMPTY_QUERY: RawQuery = Object.freeze(Object.create(null));
/** The query of a route that takes no parameters, called without any. */
const NO_PARAMS: Record<string, unknown> = Object.freeze({});

/**
 * What a handler sees. A class: the lazy `signal` and `waitUntil` live on the prototype
 * instead of being fresh closures on every request.
 */
class HandlerContext implements RouteContext {
  readonly request: Request;
  readonly url: URL;
  readonly params: Record<string, string | null>;
  readonly requestId: string;
  readonly now: number;
  readonly lifetime: RequestLifetime;
  readonly base: string;

  constructor(
    private readonly state: RequestState,
    readonly query: Record<string, unknown>,
    readonly principal: Principal | null,
    readonly ports: Ports,
    readonly config: ResolvedConfig,
    readonly routes: readonly RouteDef[],
    private readonly keep: (context: RequestContextInput | undefined, promise: Promise<unknown>) => void,
  ) {
    this.request = state.request;
    this.url = state.url;
    this.params = state.params;
    this.requestId = state.requestId;
    this.now = state.now;
    this.lifetime = state.lifetime;
    this.base = state.url.pathname.startsWith('/api/v2') ? '/api/v2' : '/api/v1';
  }

  get signal(): AbortSignal {
    return this.lifetime.signal;
  }

  get clientIp(): string {
    return this.state.context?.clientIp ?? 'unknown';
  }

  /** A getter returning a function, so handlers can destructure it. */
  get waitUntil(): (promise: Promise<unknown>) => void {
    return (promise) => this.keep(this.state.context, promise);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
