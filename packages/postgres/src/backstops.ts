/**
 * The database backstops of docs/decisions.md §8, shared by every port built on one `sql` instance:
 * - at most `maxInFlight` (144) calls in flight across the process; the next one fails at once
 *   with 503 `pool_exhausted` and `Retry-After: 5` instead of queueing behind a stuck pool;
 * - a statement timeout (set per connection by `connectPostgres`) becomes 504 `query_timeout`;
 * - an aborted request (deadline, client disconnect; core's AbortProbe): the request is answered 504
 *   `request_aborted` at once by the service's deadline race; the query running is left to
 *   finish and its result is dropped, and no further query of that request starts;
 * - a lost connection (terminated backend, restarting server) is 503 `database_unavailable`
 *   with `Retry-After: 5`: transient, and postgres.js reconnects on the next query.
 *
 * Why a query is never cancelled (docs/decisions.md §8): postgres.js's `cancel()` of a query that is not
 * the one running on its connection (pipelined behind another) leaves its promise unsettled
 * and hands its result to the next query on the connection — one customer's key row answered
 * another customer's lookup. A cancel request that does reach the server can also land on the
 * query that ran next, since PostgreSQL cancels whatever the backend runs when it arrives. So
 * the slot is held until the query settles on its own: point queries finish in milliseconds,
 * and a runaway one is ended by the server's statement timeout (10 s), which cannot hit the
 * wrong query because it is the backend's own. Every query promise settles, so the in-flight
 * count returns to 0 after any storm of aborted requests.
 *
 * Lost queries: postgres.js 3.4.9 left some queries unsettled forever when connections were
 * terminated under load (porsager/postgres#1130; patches/postgres+3.4.9.patch fixes it in this
 * repository). In case a driver still loses one, a slot held longer than `lostAfterMs` (30 s:
 * twice the request deadline, more than a statement timeout plus a reconnect) is given back,
 * its caller gets 503 database_unavailable, and `database.query_lost` is logged, so a driver
 * fault can never shrink the cap for good.
 */
import { type AbortProbe, ApiError, type Logger } from '@catalogue/core';
import type { PendingQuery, Row, Sql } from 'postgres';

export const DEFAULT_MAX_IN_FLIGHT = 144;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
export const DEFAULT_LOST_AFTER_MS = 30_000;
/** How often held slots are checked for lost queries. */
const SWEEP_MS = 5_000;

/** SQLSTATE query_canceled: with no cancel requests of ours, a statement timeout. */
const QUERY_CANCELED = '57014';

export interface BackstopOptions {
  /** Calls allowed in flight at once across the process (default 144). */
  maxInFlight?: number;
  /** A call unsettled for this long is taken for lost: its slot is given back (default 30 s). */
  lostAfterMs?: number;
  /** Where `database.query_lost` is logged. */
  logger?: Logger;
}

/** One taken slot: given back once, by the work settling or by the sweep declaring it lost. */
interface Slot {
  startedAt: number;
  released: boolean;
  lose(): void;
}

export function poolExhausted(): ApiError {
  return new ApiError('pool_exhausted');
}

export function databaseUnavailable(): ApiError {
  return new ApiError('database_unavailable');
}

export function requestAborted(): ApiError {
  return new ApiError('request_aborted');
}

export function queryTimeout(): ApiError {
  return new ApiError('query_timeout');
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** postgres.js's own codes for a socket that went away, and Node's for one that never came. */
const LOST_CONNECTION = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * A failure that says nothing about the request, only that the database is (briefly) not
 * there: SQLSTATE class 08 (connection exception), 57P01–57P03 (terminated by an administrator,
 * crash or start-up), 53300 (too many connections), or a lost socket.
 */
export function isLostConnection(error: unknown): boolean {
  const code = codeOf(error);
  if (code === undefined) return false;
  return LOST_CONNECTION.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/**
 * postgres.js 3.4.9 does not reset its per-connection row counter when a query fails in the
 * middle of its rows (porsager/postgres#1181, #1119, fixes unreleased), so the next query on
 * that connection resolves with `length - count` leading holes. The holes are always leading,
 * and `count` (from CommandComplete) is right: drop them.
 */
function withoutLeadingHoles<T>(result: T): T {
  if (Array.isArray(result)) {
    const count = (result as { count?: unknown }).count;
    if (typeof count === 'number' && result.length > count) result.splice(0, result.length - count);
  }
  return result;
}

export class QueryGuard {
  #inFlight = 0;
  readonly #slots = new Set<Slot>();
  #sweeper: ReturnType<typeof setInterval> | null = null;
  readonly lostAfterMs: number;
  readonly #logger: Logger | undefined;

  constructor(
    readonly maxInFlight: number = DEFAULT_MAX_IN_FLIGHT,
    options: Pick<BackstopOptions, 'lostAfterMs' | 'logger'> = {},
  ) {
    this.lostAfterMs = options.lostAfterMs ?? DEFAULT_LOST_AFTER_MS;
    this.#logger = options.logger;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Runs one query; `build` is called only once a slot is taken, so a refused call never
   * reaches the pool. The slot is given back when the query settles, never earlier: an
   * aborted caller is answered at once, but its query keeps its slot until it is done.
   */
  query<T extends readonly (object | undefined)[] = Row[]>(abort: AbortProbe | undefined, build: () => PendingQuery<T>): Promise<T> {
    return this.#admit(abort, () => Promise.resolve(build()).then(withoutLeadingHoles));
  }

  /**
   * Runs work that is not one query (a transaction) in one slot, under the same rules: the
   * abort probe is checked before it starts, a transaction is never cut in the middle, and an
   * aborted caller does not wait for its end.
   */
  run<T>(abort: AbortProbe | undefined, work: () => Promise<T>): Promise<T> {
    return this.#admit(abort, work);
  }

  #admit<T>(abort: AbortProbe | undefined, work: () => Promise<T>): Promise<T> {
    if (abort?.aborted) return Promise.reject(requestAborted());
    if (this.#inFlight >= this.maxInFlight) return Promise.reject(poolExhausted());
    this.#inFlight++;
    let settled: Promise<T>;
    try {
      settled = work();
    } catch (error) {
      this.#inFlight--;
      return Promise.reject(classify(error, abort));
    }
    const done = new Promise<T>((resolve, reject) => {
      const slot: Slot = { startedAt: Date.now(), released: false, lose: () => reject(databaseUnavailable()) };
      this.#hold(slot);
      settled.then(
        (value) => {
          this.#release(slot);
          // The request is over: its rows are dropped, not handed to a handler that would go on.
          if (abort?.aborted) reject(requestAborted());
          else resolve(value);
        },
        (error: unknown) => {
          this.#release(slot);
          reject(classify(error, abort));
        },
      );
    });
    // No abort listener per query: the service's deadline race answers the caller at once
    // (core's RequestLifetime), and a request runs many queries on one lifetime. A query
    // started after the abort is refused above instead.
    return done;
  }

  #hold(slot: Slot): void {
    this.#slots.add(slot);
    if (this.#sweeper === null) {
      this.#sweeper = setInterval(this.#sweep, Math.min(SWEEP_MS, this.lostAfterMs));
      (this.#sweeper as { unref?: () => void }).unref?.();
    }
  }

  #release(slot: Slot): boolean {
    if (slot.released) return false;
    slot.released = true;
    this.#slots.delete(slot);
    this.#inFlight--;
    return true;
  }

  readonly #sweep = (): void => {
    const now = Date.now();
    for (const slot of this.#slots) {
      if (now - slot.startedAt < this.lostAfterMs) continue;
      this.#release(slot);
      slot.lose();
      this.#logger?.log({ level: 'error', kind: 'database.query_lost', held_ms: now - slot.startedAt });
    }
    if (this.#slots.size === 0 && this.#sweeper !== null) {
      clearInterval(this.#sweeper);
      this.#sweeper = null;
    }
  };
}

function classify(error: unknown, abort: AbortProbe | undefined): unknown {
  if (error instanceof ApiError) return error;
  // The caller has its 504 already; whatever the dropped work did next is not news to it.
  if (abort?.aborted) return requestAborted();
  if (codeOf(error) === QUERY_CANCELED) return queryTimeout();
  if (isLostConnection(error)) return databaseUnavailable();
  return error;
}

const guards = new WeakMap<Sql, QueryGuard>();

/**
 * The guard of an `sql` instance: every port built on the same instance shares one cap, which
 * is what "across the process" means when a host builds its ports on one pool. The first
 * caller's options fix the cap.
 */
export function guardFor(sql: Sql, options: BackstopOptions = {}): QueryGuard {
  let guard = guards.get(sql);
  if (!guard) {
    guard = new QueryGuard(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, options);
    guards.set(sql, guard);
  }
  return guard;
}
