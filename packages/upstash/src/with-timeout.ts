/**
 * Store calls with a time limit that measures the store, not the host (issue 27).
 *
 * A deadline counts from when the call left the process, and it is only declared missed after
 * the event loop has looked for the reply once the deadline has passed:
 * - **From the send.** The limiter's commands of one event-loop turn leave together at the turn's
 *   end (tcp-sender.ts uncorks in a setImmediate), so a call's `ms` start there too: a host busy
 *   with a spike of requests in one turn does not spend the store's time.
 * - **After an I/O poll.** A timer can fire while replies sit unread in the socket: on Node the
 *   timers phase comes before the poll phase; on Bun and Deno the poll comes first, but a reply
 *   that reached the socket while that poll was busy handling requests waits for the next one.
 *   A host whose loop was late (a busy turn) would otherwise time out replies that arrived long
 *   ago. So an expired call is judged only after a poll phase that began past its deadline: the
 *   sweep queues an immediate, which queues a zero timer. Every one of these runtimes runs its
 *   timers before its immediates within an iteration, so that timer fires in a later iteration
 *   than the sweep's, with a poll between (Node: the sweep's own iteration's; Bun, Deno: the next
 *   one's). An immediate alone is not enough: Bun and Deno run the immediate a timer queues before
 *   their next poll (measured with a real redis-server on 2026-11-28, and the cause of the Bun
 *   host's fail-opens in the Redis Cluster fleet test). The call fails only if the store had not
 *   answered `ms` after the call was sent; the verdict comes a millisecond or so later.
 * - **Minus the host's stalls.** A timer that fires late (an idle loop fires it on time) means
 *   the host held the loop since this limit's last callback ran; no reply could be read
 *   meanwhile, so every call waiting then gets that time back. This also covers transports that
 *   need several turns to send (fetch opens its sockets and writes its requests in later turns:
 *   the Upstash REST path).
 * So docs/decisions.md §8's "slower than 50 ms" is the store's latency, and rule 9's fail open
 * happens only when the store is really unreachable or slow, never because the host was busy.
 *
 * Every call of one limit shares one deadline list and one timer (issue 14: a timer set and
 * cleared per call sat on the gate's hot path): as the limit is the same for all of them, calls
 * fall due in the order they were sent, so the list is a queue and the timer only ever waits
 * for its head.
 */

/** Rejects when `work` has not settled within `ms`; the store call itself may still land later. */
export class StoreTimeoutError extends Error {
  constructor(ms: number) {
    super(`rate-limit store did not answer within ${ms} ms`);
    this.name = 'StoreTimeoutError';
  }
}

export interface TimeLimit {
  /** `work`'s outcome, or a StoreTimeoutError once `ms` have passed since it was sent without one. */
  wrap<T>(work: Promise<T>): Promise<T>;
}

/** A call waiting for its outcome; `reject` is null once it settled. */
class Pending {
  next: Pending | null = null;
  /** Infinity until the turn it was made in has ended (and its command was written). */
  due = Number.POSITIVE_INFINITY;
  constructor(public reject: ((error: Error) => void) | null) {}
}

/**
 * The event loop a limit runs on: the process's by default; a test's fake one steps through
 * timers, polls and checks on a clock of its own.
 */
export interface LoopClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): { unref?(): unknown };
  setImmediate(callback: () => void): unknown;
}

const PROCESS_LOOP: LoopClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  setImmediate: (callback) => setImmediate(callback),
};

/** A timer later than this (the loop's usual jitter is a millisecond or two) means the host held the loop. */
const STALL_MS = 5;

export function timeLimit(ms: number, loop: LoopClock = PROCESS_LOOP): TimeLimit {
  let head: Pending | null = null;
  let tail: Pending | null = null;
  /** The calls of the current turn, stamped with their deadline at its end. */
  let unstamped: Pending[] = [];
  /** A sweep (timer) or a confirmation (an immediate, then a timer) is scheduled. */
  let scheduled = false;
  /** When the armed timer should fire. */
  let armedFor = 0;
  /** When a callback of this limit (stamp, sweep, confirmation) last ran: the loop turned then. */
  let lastSeen = 0;

  const arm = (first: Pending) => {
    scheduled = true;
    armedFor = Math.max(first.due, loop.now());
    // Unreferenced: a call in flight holds its socket or request open anyway, and a settled
    // head must not keep a process alive until its deadline.
    loop.setTimeout(sweep, armedFor - loop.now()).unref?.();
  };

  /** Drops settled calls from the front, so a busy list holds no garbage for `ms`. */
  const dropSettled = () => {
    while (head !== null && head.reject === null) head = head.next;
    if (head === null) tail = null;
  };

  const settle = (pending: Pending) => {
    pending.reject = null;
    if (pending === head) dropSettled();
  };

  /** The end of a turn that made calls: their commands have been written (tcp-sender.ts). */
  function stamp(): void {
    lastSeen = loop.now();
    const due = lastSeen + ms;
    for (const pending of unstamped) pending.due = due;
    unstamped = [];
    if (!scheduled && head !== null) arm(head);
  }

  function sweep(): void {
    scheduled = false;
    dropSettled();
    if (head === null) return;
    // A timer may fire a little before the clock reads its deadline (it counts from the event
    // loop's cached time): such a head is simply waited for again.
    const now = loop.now();
    if (now - armedFor > STALL_MS) {
      // The host held the loop: the calls waiting meanwhile get that time back (see the header).
      const stalled = now - lastSeen;
      for (let pending: Pending | null = head; pending !== null; pending = pending.next) pending.due += stalled;
    }
    lastSeen = now;
    if (head.due > now) {
      if (Number.isFinite(head.due)) arm(head);
      return;
    }
    // Due: let a poll phase that starts from here read what has arrived, then judge (see the header).
    scheduled = true;
    loop.setImmediate(() => loop.setTimeout(() => confirm(now), 0));
  }

  function confirm(sweptAt: number): void {
    scheduled = false;
    lastSeen = loop.now();
    while (head !== null && (head.reject === null || head.due <= sweptAt)) {
      const reject = head.reject;
      head.reject = null;
      head = head.next;
      reject?.(new StoreTimeoutError(ms));
    }
    if (head === null) tail = null;
    else if (Number.isFinite(head.due)) arm(head);
  }

  return {
    wrap<T>(work: Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const pending = new Pending(reject);
        if (tail === null) head = pending;
        else tail.next = pending;
        tail = pending;
        // After the sender's own end-of-turn write (queued when the command was made, before
        // this wrap), so the deadline starts once the command has left.
        if (unstamped.push(pending) === 1) loop.setImmediate(stamp);
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
