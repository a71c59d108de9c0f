/**
 * One request as the pipeline holds it (issue 38 step 1; h3's `H3Event`, Hono's `Context`):
 * made once in service.fetch, handed to every step — route match, cutover, access
 * (gate/admission.ts), the handler (it is the RouteContext handlers see), representation,
 * the answer — and read by the access line at the end.
 *
 * It holds the request and its URL (parsed once), the matched route's pattern, params and
 * strict query, the request id, the start time and `now`, the lifetime (deadline and client
 * disconnect; its AbortSignal made only if a port reads `signal`), the principal and the
 * release of its concurrency slot, the CORS decision, and the headers of the answer.
 *
 * The answer's headers are one plain record written only here: `header`, `headersFrom` and
 * `vary` are its writers, and `respond` hands the record itself to the Response, beneath the
 * Reply's own headers, so the Node host's bridge passes it to `writeHead` untouched (no
 * Headers object per request: http/json.ts). Error answers (`refuse`) carry the same headers:
 * request id, CORS, cutover, rate limit.
 */
import type { ResolvedConfig } from '../config.js';
import { type ApiError, errorResponse } from '../errors/api-error.js';
import type { Accounts, Ports } from '../ports/index.js';
import type { RequestLifetime } from './deadline.js';
import { Reply } from './json.js';
import type { Principal, RouteContext, RouteDef } from './route.js';

/** What the host tells the service of a request (service.fetch's second argument). */
export interface RequestContextInput {
  /** Client IP as the host sees it (after TRUST_PROXY handling). */
  clientIp?: string;
  /** Keeps the runtime alive for work finished after the response (Deno Deploy, Lambda, workers). */
  waitUntil?(promise: Promise<unknown>): void;
}

/** What every request of one service shares: what handlers read, and where work after the answer goes. */
export interface ServiceScope {
  readonly ports: Ports<Accounts>;
  readonly config: ResolvedConfig;
  readonly routes: readonly RouteDef[];
  /** Hands `promise` to the host's waitUntil, logging its failure. */
  keep(host: RequestContextInput | undefined, promise: Promise<unknown>): void;
}

const NO_PARAMS: Record<string, string | null> = Object.freeze({});
const NO_QUERY: Record<string, unknown> = Object.freeze({});

export class RequestEvent implements RouteContext<Record<string, unknown>, Accounts> {
  /** performance.now() when the service received the request: the access line's `ms`. */
  readonly startedAt = performance.now();
  readonly url: URL;
  /** The matched route's pattern (`/api/v1/masters/:id`), never the path: no ids in logs or labels. */
  route: string | null = null;
  /** Path parameters, percent-decoded; null where decoding failed. */
  params: Record<string, string | null> = NO_PARAMS;
  /** The strict query of the route, once admission let the request through. */
  query: Record<string, unknown> = NO_QUERY;
  /** Epoch ms from the injected clock, taken once the route is known. */
  now = 0;
  /** The request lifetime (deadline, client disconnect), started once the route is known: pass it to every port call. */
  lifetime!: RequestLifetime;
  /** The authenticated caller, once the key gate let the request through. */
  principal: Principal | null = null;
  /** Frees the concurrency slot, once admission took one. */
  release: (() => Promise<void>) | null = null;
  /** The request's Origin is allowed by CORS_ORIGINS (http/cors.ts). */
  corsAllowed = false;
  /**
   * performance.now() when admission let the request through to its handler (0: it never got
   * there): the access line's `gate_ms`. `ms - gate_ms` is then the part of the request that
   * held its concurrency slot (the slot is released in the same turn as the line is written;
   * the Redis limiter sends that release at the turn's end).
   */
  admittedAt = 0;

  constructor(
    readonly request: Request,
    readonly requestId: string,
    private readonly host: RequestContextInput | undefined,
    private readonly scope: ServiceScope,
    /** The answer's headers so far (the request id, the hardening headers); written only through this object from here on. */
    private readonly out: Record<string, string>,
  ) {
    this.url = new URL(request.url);
  }

  get ports(): Ports<Accounts> {
    return this.scope.ports;
  }

  get config(): ResolvedConfig {
    return this.scope.config;
  }

  /** Every route of the service (the root index, the OpenAPI documents and wayfind read it). */
  get routes(): readonly RouteDef[] {
    return this.scope.routes;
  }

  /** '/api/v1' or '/api/v2': the version prefix the request came in on. */
  get base(): string {
    return this.url.pathname.startsWith('/api/v2') ? '/api/v2' : '/api/v1';
  }

  /** Fires at the deadline or when the client goes away; made only when read. */
  get signal(): AbortSignal {
    return this.lifetime.signal;
  }

  /** The client's IP as the host saw it (after TRUST_PROXY); 'unknown' when the host did not say. */
  get clientIp(): string {
    return this.host?.clientIp ?? 'unknown';
  }

  /** The admitted key's 12-character display prefix (docs/decisions.md §3): never the key. */
  get keyPrefix(): string | null {
    return this.principal === null ? null : this.principal.key.display_prefix;
  }

  /** Work the host must let finish after the answer (a getter returning a function, so handlers can destructure it). */
  get waitUntil(): (promise: Promise<unknown>) => void {
    return (promise) => this.keep(promise);
  }

  keep(promise: Promise<unknown>): void {
    this.scope.keep(this.host, promise);
  }

  /** Sets a header of the answer (a lower-case name); errors carry it too. */
  header(name: string, value: string): void {
    this.out[name] = value;
  }

  /** Sets every header of `headers` (cutover, rate limit). */
  headersFrom(headers: Readonly<Record<string, string>>): void {
    for (const name in headers) this.out[name] = headers[name] as string;
  }

  /** Adds a field name (lower case) to the answer's `Vary`, once: CORS adds Origin, compression Accept-Encoding. */
  vary(name: string): void {
    const current = this.out.vary;
    if (!current) this.out.vary = name;
    else if (!current.split(',').some((part) => part.trim().toLowerCase() === name)) this.out.vary = `${current}, ${name}`;
  }

  /** The answer's headers as they stand (read only: write through `header`). */
  get responseHeaders(): Readonly<Record<string, string>> {
    return this.out;
  }

  /**
   * The answer: a Reply becomes one Response over this event's header record (the Reply's own
   * headers copied in where the record has none of its own); a Response a handler built
   * (redirects, empty bodies) gets the record's headers set on it. No body for HEAD.
   */
  respond(result: Reply | Response): Response {
    const head = this.request.method === 'HEAD';
    const out = this.out;
    if (result instanceof Reply) {
      const own = result.headers;
      for (const name in own) if (!(name in out)) out[name] = own[name] as string;
      return new Response(head ? null : result.body, { status: result.status, headers: out });
    }
    for (const name in out) result.headers.set(name, out[name] as string);
    return head ? new Response(null, { status: result.status, headers: result.headers }) : result;
  }

  /** The spec's error answer for `error`, with this request's headers (errors/api-error.ts). */
  refuse(error: ApiError): Response {
    const response = errorResponse(error, this.requestId, this.out);
    return this.request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
  }
}
