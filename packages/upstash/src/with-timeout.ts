/**
 * Store calls with a time limit. Every call of one limit shares one deadline list and one timer
 * (issue 14: a timer set and cleared per call sat on the gate's hot path): as the limit is the
 * same for all of them, calls fall due in the order they were made, so the list is a queue and
 * the timer only ever waits for its head.
 */

/** Rejects when `work` has not settled within `ms`; the store call itself may still land later. */
export class StoreTimeoutError extends Error {
  constructor(ms: number) {
    super(`rate-limit store did not answer within ${ms} ms`);
    this.name = 'StoreTimeoutError';
  }
}

export interface TimeLimit {
  /** `work`'s outcome, or a StoreTimeoutError once `ms` have passed without one. */
  wrap<T>(work: Promise<T>): Promise<T>;
}

/** A call waiting for its outcome; `reject` is null once it settled. */
class Pending {
  next: Pending | null = null;
  constructor(
    readonly due: number,
    public reject: ((error: Error) => void) | null,
  ) {}
}

export function timeLimit(ms: number): TimeLimit {
  let head: Pending | null = null;
  let tail: Pending | null = null;
  let armed = false;

  const arm = (first: Pending) => {
    armed = true;
    // Unreferenced: a call in flight holds its socket or request open anyway, and a settled
    // head must not keep a process alive until its deadline.
    setTimeout(sweep, Math.max(0, first.due - performance.now())).unref();
  };

  /** Settled calls leave from the front at once, so a busy list holds no garbage for `ms`. */
  const settle = (pending: Pending) => {
    pending.reject = null;
    if (pending !== head) return;
    while (head !== null && head.reject === null) head = head.next;
    if (head === null) tail = null;
  };

  function sweep(): void {
    armed = false;
    // A timer may fire a little before the clock reads its deadline (it counts from the event
    // loop's cached time): such a head is simply waited for again.
    const now = performance.now();
    while (head !== null && (head.reject === null || head.due <= now)) {
      const reject = head.reject;
      head.reject = null;
      head = head.next;
      reject?.(new StoreTimeoutError(ms));
    }
    if (head === null) tail = null;
    else arm(head);
  }

  return {
    wrap<T>(work: Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const pending = new Pending(performance.now() + ms, reject);
        if (tail === null) head = pending;
        else tail.next = pending;
        tail = pending;
        if (!armed) arm(pending);
        // A late settlement of `work` after the timeout is observed here, so it never surfaces as unhandled.
        work.then(
          (value) => {
            settle(pending);
            resolve(value);
          },
          (error: unknown) => {
            settle(pending);
            reject(error);
          },
        );
      });
    },
  };
}
