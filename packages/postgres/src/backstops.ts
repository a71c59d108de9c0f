/**
 * The database backstops of decisions.md §8, shared by every port built on one `sql` instance:
 * - at most `maxInFlight` (144) calls in flight across the process; the next one fails at once
 *   with 503 `pool_exhausted` and `Retry-After: 5` instead of queueing behind a stuck pool;
 * - a statement timeout (set per connection by `connectPostgres`) becomes 504 `query_timeout`;
 * - an aborted request signal (deadline, client disconnect) cancels the running query on the
 *   server and becomes 504 `request_aborted`.
 * The slot is always given back in `finally`, so none of these leaks capacity.
 */
import { ApiError } from '@catalogue/core';
import type { PendingQuery, Row, Sql } from 'postgres';

export const DEFAULT_MAX_IN_FLIGHT = 144;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;

/** SQLSTATE query_canceled: raised for both a statement timeout and a cancel request. */
const QUERY_CANCELED = '57014';

export interface BackstopOptions {
  /** Calls allowed in flight at once across the process (default 144). */
  maxInFlight?: number;
}

export function poolExhausted(): ApiError {
  return new ApiError(503, 'pool_exhausted', {}, { 'retry-after': '5' });
}

export function requestAborted(): ApiError {
  return new ApiError(504, 'request_aborted');
}

export function queryTimeout(): ApiError {
  return new ApiError(504, 'query_timeout');
}

function isQueryCanceled(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === QUERY_CANCELED;
}

export class QueryGuard {
  #inFlight = 0;

  constructor(readonly maxInFlight: number = DEFAULT_MAX_IN_FLIGHT) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Runs one query; `build` is called only once a slot is taken, so a refused call never reaches the pool. */
  async query<T extends readonly (object | undefined)[] = Row[]>(signal: AbortSignal | undefined, build: () => PendingQuery<T>): Promise<T> {
    return this.#admit(
      signal,
      async () => {
        const pending = build();
        const cancel = () => {
          // cancel() of a query already done is a no-op; a failed cancel request must not crash.
          Promise.resolve(pending.cancel()).catch(() => undefined);
        };
        signal?.addEventListener('abort', cancel, { once: true });
        try {
          return await pending;
        } finally {
          signal?.removeEventListener('abort', cancel);
        }
      },
      signal,
    );
  }

  /**
   * Runs work that is not one cancellable query (a transaction) in one slot. The signal is
   * checked before it starts; a transaction is never cut in the middle.
   */
  async run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    return this.#admit(signal, work, signal);
  }

  async #admit<T>(signal: AbortSignal | undefined, work: () => Promise<T>, watched: AbortSignal | undefined): Promise<T> {
    if (signal?.aborted) throw requestAborted();
    if (this.#inFlight >= this.maxInFlight) throw poolExhausted();
    this.#inFlight++;
    try {
      return await work();
    } catch (error) {
      if (watched?.aborted && (isQueryCanceled(error) || !(error instanceof ApiError))) throw requestAborted();
      if (isQueryCanceled(error)) throw queryTimeout();
      throw error;
    } finally {
      this.#inFlight--;
    }
  }
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
    guard = new QueryGuard(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    guards.set(sql, guard);
  }
  return guard;
}
