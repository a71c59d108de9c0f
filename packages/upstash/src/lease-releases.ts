/**
 * Concurrency-lease releases on their way to Redis (issue 14: a second command per request was
 * a third of the limiter's cost on the host, and Redis's own CPU shares the cores). A release
 * waits at most until the end of the event-loop turn it was made in:
 * - the next admit of the same key in that turn takes it and its script removes the lease
 *   before counting (ADMIT_SCRIPT's trailing ARGV), so no command is sent for it at all;
 * - otherwise, at the end of the turn (setImmediate), one ZREM per key removes every lease
 *   released in the turn.
 * Another instance thus sees a slot free within one turn, as before when each release was its
 * own ZREM sent in that turn. A release that fails is logged by the caller's `onError`: the
 * lease expires after LEASE_MS anyway (redis-limiter.ts).
 */

export interface LeaseReleases {
  /** Queues a release; the promise settles once Redis has removed the lease (or the attempt failed). */
  release(leaseKey: string, leaseId: string): Promise<void>;
  /**
   * The releases queued for this lease set, for an admit script to remove. Hand the answer to
   * `landed` once the script answered, or to `resend` to send them the ordinary way.
   */
  take(leaseKey: string): TakenReleases | null;
  landed(taken: TakenReleases): void;
  /** ZREM is idempotent: whether or not the failed script ran, sending them again is right. */
  resend(taken: TakenReleases): void;
  /** Sends what is queued now (shutdown). */
  flush(): Promise<void>;
}

export interface TakenReleases {
  readonly leaseKey: string;
  readonly leaseIds: readonly string[];
}

interface Pending extends TakenReleases {
  readonly leaseIds: string[];
  /** Settles every release of the batch (never rejects: a failed release only costs a slot until expiry). */
  done: () => void;
  settled: Promise<void>;
}

export function leaseReleases(zrem: (key: string, members: string[]) => Promise<unknown>, onError: (leaseKey: string, error: unknown) => void): LeaseReleases {
  const queued = new Map<string, Pending>();
  let scheduled = false;

  function pendingFor(leaseKey: string): Pending {
    let pending = queued.get(leaseKey);
    if (!pending) {
      let done!: () => void;
      const settled = new Promise<void>((resolve) => {
        done = resolve;
      });
      pending = { leaseKey, leaseIds: [], done, settled };
      queued.set(leaseKey, pending);
    }
    return pending;
  }

  function send(pending: Pending): Promise<void> {
    return zrem(pending.leaseKey, pending.leaseIds).then(
      () => pending.done(),
      (error: unknown) => {
        onError(pending.leaseKey, error);
        pending.done();
      },
    );
  }

  function flush(): Promise<void> {
    scheduled = false;
    const batches = [...queued.values()];
    queued.clear();
    return Promise.all(batches.map(send)).then(() => undefined);
  }

  return {
    release(leaseKey, leaseId) {
      const pending = pendingFor(leaseKey);
      pending.leaseIds.push(leaseId);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
      return pending.settled;
    },

    take(leaseKey) {
      const pending = queued.get(leaseKey);
      if (!pending) return null;
      queued.delete(leaseKey);
      return pending;
    },

    landed: (taken) => (taken as Pending).done(),

    resend: (taken) => void send(taken as Pending),

    flush,
  };
}
