/**
 * Single-flight key lookups (docs/decisions.md §3, "The key cache"; issue 27): requests that
 * miss the key cache for the same key hash at the same time make one `findKeyByHash` read and
 * share its answer, so a burst of first requests of one key costs one database call instead of
 * one each (150 of them once exhausted the 144 calls in flight of §8 and answered 503).
 *
 * - Reads are shared per hash only: no request ever gets a row read for another key.
 * - The read runs under a lifetime of its own (`SharedLifetime`): it counts as ended only once
 *   every request waiting on it has ended, so the first caller's disconnect never fails the
 *   others. A waiter whose own request ended gets 504 `request_aborted` once the read is done
 *   (the service's deadline race has answered it already) and goes no further: it is neither
 *   counted nor admitted.
 * - A failure (503 `pool_exhausted`, `database_unavailable`, …) reaches every waiter and is not
 *   kept: the next request reads again.
 * - Each read remembers the accounts epoch seen before it started (the key cache's rule, in
 *   key-cache.ts, is about when the read started, not when a waiter joined it), and a request
 *   joins a read only while that epoch is still the newest this process knows: after a `stale`
 *   answer, the re-read starts after the change it learned of.
 */
import { ApiError } from '../errors/api-error.js';
import { type AbortProbe, abortProbeOf, requestAborted } from '../http/deadline.js';
import type { CallOptions, CustomersAndKeys, KeyWithCustomer } from '../ports/index.js';

/** One lookup's answer as a request receives it. */
export interface KeyRead {
  found: KeyWithCustomer | null;
  /** The accounts epoch this process knew when the read started (null: none known yet). */
  epochBefore: string | null;
  /** The request joined a read another request had started (it may predate this request). */
  joined: boolean;
}

interface InFlight {
  epochBefore: string | null;
  lifetime: SharedLifetime;
  result: Promise<KeyWithCustomer | null>;
}

/**
 * The lifetime a shared read runs under: ended only when every request waiting on it has
 * ended. A store asks `aborted` before it starts a query and after it (backstops.ts); one
 * request's end must not decide for the others.
 */
class SharedLifetime implements CallOptions {
  readonly #waiters: Array<AbortProbe | undefined> = [];

  add(lifetime: CallOptions | undefined): void {
    this.#waiters.push(abortProbeOf(lifetime));
  }

  get aborted(): boolean {
    for (const waiter of this.#waiters) if (!waiter?.aborted) return false;
    return true;
  }
}

export class SharedKeyReads {
  readonly #inFlight = new Map<string, InFlight>();

  /**
   * The key row of `hash`, read once for every request asking at the same time. `epoch` is
   * the newest accounts epoch this process knows (the key cache's `lastEpoch`).
   */
  read(accounts: CustomersAndKeys, hash: string, lifetime: CallOptions | undefined, epoch: string | null): Promise<KeyRead> {
    return this.#read(accounts, hash, lifetime, epoch, true);
  }

  async #read(accounts: CustomersAndKeys, hash: string, lifetime: CallOptions | undefined, epoch: string | null, mayRetry: boolean): Promise<KeyRead> {
    const ownEnd = abortProbeOf(lifetime);
    // A request already over starts nothing (as a store would refuse it): a read it started
    // would be refused for everyone who joined it.
    if (ownEnd?.aborted) throw requestAborted();
    const current = this.#inFlight.get(hash);
    const joined = current !== undefined && current.epochBefore === epoch;
    let entry: InFlight;
    if (joined) {
      entry = current;
      entry.lifetime.add(lifetime);
    } else {
      entry = this.#start(accounts, hash, lifetime, epoch);
    }
    let found: KeyWithCustomer | null;
    try {
      found = await entry.result;
    } catch (error) {
      // Refused as ended while this request goes on: every other waiter had ended when the
      // store asked. Read once more rather than answer a live request 504.
      if (joined && mayRetry && isRequestAborted(error) && !ownEnd?.aborted) return this.#read(accounts, hash, lifetime, epoch, false);
      throw error;
    }
    if (ownEnd?.aborted) throw requestAborted();
    return { found, epochBefore: entry.epochBefore, joined };
  }

  #start(accounts: CustomersAndKeys, hash: string, starter: CallOptions | undefined, epoch: string | null): InFlight {
    const lifetime = new SharedLifetime();
    // Before the store sees it: a store asks `aborted` as it starts the query.
    lifetime.add(starter);
    const entry: InFlight = { epochBefore: epoch, lifetime, result: Promise.resolve(null) };
    // The entry leaves the map before any waiter goes on, so nobody joins a read that has
    // already answered; a newer read of the same hash (a newer epoch) is left in place.
    let pending: Promise<KeyWithCustomer | null>;
    try {
      pending = accounts.findKeyByHash(hash, lifetime);
    } catch (error) {
      pending = Promise.reject(error);
    }
    entry.result = pending.finally(() => {
      if (this.#inFlight.get(hash) === entry) this.#inFlight.delete(hash);
    });
    this.#inFlight.set(hash, entry);
    return entry;
  }
}

function isRequestAborted(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'request_aborted';
}
