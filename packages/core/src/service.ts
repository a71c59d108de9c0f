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
 * becomes the spec's body in one place (`RequestEvent.refuse`, errors/api-error.ts's
 * `errorResponse`). docs/architecture.md walks it.
 */
import { type ResolvedConfig, resolveConfig, type ServiceConfig } from './config.js';
import { consoleLogger, loggingAlarm, noMetrics, pureHasher, systemClock, throttledAlarm } from './defaults.js';
import { ApiError } from './errors/api-error.js';
import { admitKey, admitPublic, checkAdmin, keyGate } from './gate/admission.js';
import { invalidatingAccounts } from './gate/auth-invalidation.js';
import { beaconSignerFor } from './gate/beacon-token.js';
import { FailOpenWatch, withFailOpenCheck } from './gate/fail-open-watch.js';
import { KeyCache } from './gate/key-cache.js';
import { addCorsHeaders, corsPolicyOf, preflightHeaders } from './http/cors.js';
import { DeadlineQueue, requestAborted } from './http/deadline.js';
import { Reply } from './http/json.js';
import { represent } from './http/representation.js';
import { type RequestContextInput, RequestEvent, type ServiceScope } from './http/request-event.js';
import { newRequestId } from './http/request-id.js';
import type { Method, RouteDef } from './http/route.js';
import { createRouter } from './http/router.js';
import { securityHeaders } from './http/security-headers.js';
import { runJobs } from './jobs.js';
import type { Accounts, Ports, PortsInput } from './ports/index.js';
import { API_ROUTES } from './routes/index.js';
import { parseQuery, type RawQuery, rawQueryOf } from './validation/query.js';
import { createCutover } from './versioning.js';
import { WEB_ROUTES } from './web/index.js';

export type { RequestContextInput } from './http/request-event.js';

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
  const ports: Ports<Accounts> = {
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

  const scope: ServiceScope = { ports, config, routes, keep: keepAlive };

  async function handle(event: RequestEvent): Promise<Response | Reply> {
    const { request, url } = event;
    const match = router.match(url);
    if (!match) throw new ApiError('route_not_found', { message: `no route for ${url.pathname}` });

    const def = match.byMethod.get(request.method === 'HEAD' ? 'GET' : (request.method as Method));
    event.route = def ? def.path : null;
    if (!def) {
      if (request.method === 'OPTIONS') {
        // A CORS preflight from an allowed origin learns the methods, headers and max age;
        // any other OPTIONS only the Allow list. It reaches no gate, so it counts nowhere.
        if (event.corsAllowed && request.headers.has('access-control-request-method')) preflightHeaders(match.allow, event);
        return new Response(null, { status: 204, headers: { allow: match.allow } });
      }
      throw new ApiError('method_not_allowed', { allow: match.allow.split(', ') }, { allow: match.allow });
    }

    event.now = clock.now();
    event.params = match.params;
    const versioned = cutover.decide(def, match.params, url, event.now);
    if (versioned.headers) event.headersFrom(versioned.headers);
    if (versioned.redirect) return versioned.redirect;
    if (versioned.gone) throw versioned.gone;
    const lifetime = deadlines.start(request);
    event.lifetime = lifetime;
    try {
      // One race covers admission and handler: the deadline is per request, not per step.
      const answer = await lifetime.race(admitAndAnswer(def, event));
      return answer instanceof Reply ? represent(answer, event, def.cache, ports.hasher) : answer;
    } finally {
      lifetime.dispose();
      // An admission that outlives the deadline frees its own slot (admitAndAnswer).
      if (event.release) event.keep(event.release());
    }
  }

  async function admitAndAnswer(def: RouteDef, event: RequestEvent): Promise<Response | Reply> {
    await admit(def, event);
    if (event.lifetime.ended) {
      // The caller already has its 504: free the slot now, and never start a handler (nor
      // its side effects) for a request that is over.
      const release = event.release;
      event.release = null;
      if (release) event.keep(release());
      throw requestAborted();
    }
    event.admittedAt = performance.now();
    event.query = queryOf(event.url, def);
    return def.handler(event);
  }

  function admit(def: RouteDef, event: RequestEvent): Promise<void> {
    switch (def.access) {
      case 'key':
        return admitKey(event, ports, true, gate);
      case 'key-uncounted':
        return admitKey(event, ports, false, gate);
      case 'public':
        return admitPublic(event, ports, config);
      case 'admin':
        return checkAdmin(event, config, ports);
      case 'open':
        return OPEN;
    }
  }

  function keepAlive(host: RequestContextInput | undefined, promise: Promise<unknown>): void {
    const guarded = promise.catch((error: unknown) => {
      logger.log({ level: 'error', kind: 'background.error', error: describe(error) });
    });
    host?.waitUntil?.(guarded);
  }

  async function fetch(request: Request, context?: RequestContextInput): Promise<Response> {
    const requestId = newRequestId();
    const event = new RequestEvent(request, requestId, context, scope, { 'x-request-id': requestId, ...hardening });
    // Without CORS_ORIGINS nothing here runs; with it, errors carry the CORS headers too.
    if (cors) addCorsHeaders(cors, event);
    try {
      return answered(event, event.respond(await handle(event)));
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
      return answered(event, event.refuse(failure));
    }
  }

  /** One access-log line and the request metrics per request (docs/decisions.md §8), then the answer. */
  function answered(event: RequestEvent, response: Response): Response {
    const seconds = (performance.now() - event.startedAt) / 1000;
    logger.log({
      level: 'info',
      kind: 'http.access',
      request_id: event.requestId,
      method: event.request.method,
      route: event.route,
      status: response.status,
      ms: Math.round(seconds * 10_000) / 10,
      gate_ms: event.admittedAt === 0 ? null : Math.round((event.admittedAt - event.startedAt) * 10) / 10,
      key_prefix: event.keyPrefix,
    });
    ports.metrics.request(event.route, event.request.method, response.status, seconds);
    return response;
  }

  return {
    fetch,
    routes,
    config,
    runJobs: (now) => runJobs(ports, now ?? new Date(clock.now()), config),
  };
}

/** The access check of an `open` route: the route checks its own credential. */
const OPEN: Promise<void> = Promise.resolve();

const EMPTY_QUERY: RawQuery = Object.freeze(Object.create(null));
/** The query of a route that takes no parameters, called without any. */
const NO_PARAMS: Record<string, unknown> = Object.freeze({});

/** The strict query of `def`; a URL without a query string skips URLSearchParams entirely. */
function queryOf(url: URL, def: RouteDef): Record<string, unknown> {
  if (url.search === '') return def.query ? parseQuery(EMPTY_QUERY, def.query) : NO_PARAMS;
  return parseQuery(rawQueryOf(url.searchParams) as RawQuery, def.query ?? {});
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
