/**
 * timeLimit: each call settles as its work does, or with StoreTimeoutError `ms` after it was
 * sent; one timer serves them all. Deadlines are checked on a fake event loop (its clock,
 * timers, poll and check phases stepped by the test), never on the wall clock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LoopClock, StoreTimeoutError, timeLimit } from './with-timeout.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const never = () => new Promise<never>(() => {});
/** Lets every promise callback queued so far run. */
const drain = () => new Promise((resolve) => setImmediate(resolve));
/**
 * A due call's verdict waits for an immediate and then a zero timer (with-timeout.ts, "After an
 * I/O poll"); the fake's timers, as Node's, wait at least 1 ms.
 */
const VERDICT = 1;

/**
 * An event loop on a clock of its own. Each iteration runs the timers due, the poll phase (replies
 * that have arrived when it starts are read, and requests handled) and the check phase
 * (immediates queued before it), in Node's order (libuv: timers, poll, check) or in Bun's and
 * Deno's (poll, timers, check: measured with a real redis-server, 2026-11-28 — an immediate a
 * timer queues there runs before the next poll). `hold` is the host busy in the current turn:
 * the clock moves, nothing runs; `request` is work a poll phase does (a request's handler).
 */
function fakeLoop(order: 'node' | 'bun' = 'node') {
  let now = 0;
  let timers: Array<{ at: number; callback: () => void }> = [];
  let replies: Array<{ at: number; deliver: () => void }> = [];
  let immediates: Array<() => void> = [];
  let requests: Array<{ at: number; busy: number }> = [];
  const clock: LoopClock = {
    now: () => now,
    setTimeout(callback, ms) {
      timers.push({ at: now + Math.max(1, ms), callback });
      return {};
    },
    setImmediate(callback) {
      immediates.push(callback);
    },
  };
  async function timersPhase(): Promise<void> {
    const due = timers.filter((timer) => timer.at <= now).sort((a, b) => a.at - b.at);
    timers = timers.filter((timer) => timer.at > now);
    for (const timer of due) {
      timer.callback();
      await drain();
    }
  }
  async function pollPhase(): Promise<void> {
    const started = now;
    const read = replies.filter((reply) => reply.at <= started);
    replies = replies.filter((reply) => reply.at > started);
    for (const reply of read) {
      reply.deliver();
      await drain();
    }
    const handled = requests.filter((request) => request.at <= started);
    requests = requests.filter((request) => request.at > started);
    for (const request of handled) now += request.busy;
  }
  async function iteration(): Promise<void> {
    if (order === 'node') {
      await timersPhase();
      await pollPhase();
    } else {
      await pollPhase();
      await timersPhase();
    }
    const checks = immediates;
    immediates = [];
    for (const callback of checks) {
      callback();
      await drain();
    }
  }
  return {
    clock,
    now: () => now,
    /** A store reply that reaches the socket at `at`, read in the first poll phase from then. */
    reply<T>(at: number, value: T): Promise<T> {
      return new Promise<T>((resolve) => replies.push({ at, deliver: () => resolve(value) }));
    },
    hold(ms: number): void {
      now += ms;
    },
    /** A request reaching the host at `at`, whose handler holds the poll phase for `busy` ms. */
    request(at: number, busy: number): void {
      requests.push({ at, busy });
    },
    /** Runs iterations until nothing is due before `until`, and leaves the clock there. */
    async runUntil(until: number): Promise<void> {
      await drain();
      for (;;) {
        if (immediates.length > 0) {
          await iteration();
          continue;
        }
        const next = Math.min(...timers.map((timer) => timer.at), ...replies.map((reply) => reply.at), ...requests.map((request) => request.at));
        if (next > until) break;
        now = Math.max(now, next);
        await iteration();
      }
      now = Math.max(now, until);
    },
  };
}

/** A call's outcome and the fake clock's time when it came. */
function watch(loop: ReturnType<typeof fakeLoop>, call: Promise<unknown>) {
  const watched: { outcome: { result: string; at: number } | null; error: Error | null } = { outcome: null, error: null };
  call.then(
    () => {
      watched.outcome = { result: 'ok', at: loop.now() };
    },
    (error: Error) => {
      watched.outcome = { result: error instanceof StoreTimeoutError ? 'timeout' : 'error', at: loop.now() };
      watched.error = error;
    },
  );
  return watched;
}

describe('timeLimit', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes on a value or an error that comes in time', async () => {
    const limit = timeLimit(200);
    await expect(limit.wrap(later(5, 'ok'))).resolves.toBe('ok');
    const failure = new Error('store said no');
    await expect(limit.wrap(Promise.reject(failure))).rejects.toBe(failure);
  });

  it('rejects with StoreTimeoutError once ms have passed since the send, not before', async () => {
    const loop = fakeLoop();
    const limit = timeLimit(60, loop.clock);
    const call = watch(loop, limit.wrap(never()));
    await loop.runUntil(59);
    expect(call.outcome).toBeNull();
    await loop.runUntil(60);
    expect(call.outcome).toBeNull();
    await loop.runUntil(60 + VERDICT);
    expect(call.outcome).toEqual({ result: 'timeout', at: 60 + VERDICT });
    expect(call.error?.message).toBe('rate-limit store did not answer within 60 ms');
  });

  it('each call has its own deadline: calls made later time out later, quick ones are untouched', async () => {
    const loop = fakeLoop();
    const limit = timeLimit(80, loop.clock);
    const first = watch(loop, limit.wrap(never()));
    await loop.runUntil(40);
    const second = watch(loop, limit.wrap(never()));
    const quick = watch(loop, limit.wrap(loop.reply(50, 1)));
    const slowButInTime = watch(loop, limit.wrap(loop.reply(100, 2)));
    await loop.runUntil(500);
    expect([first, second, quick, slowButInTime].map((call) => call.outcome)).toEqual([
      { result: 'timeout', at: 80 + VERDICT },
      { result: 'timeout', at: 120 + VERDICT },
      { result: 'ok', at: 50 },
      { result: 'ok', at: 100 },
    ]);
  });

  it('judges a due call after the poll: a reply read in the iteration its timer fires in is taken', async () => {
    const loop = fakeLoop();
    const limit = timeLimit(60, loop.clock);
    const onTheDeadline = watch(loop, limit.wrap(loop.reply(60, 'in time')));
    const justLate = watch(loop, limit.wrap(loop.reply(61, 'late')));
    await loop.runUntil(200);
    expect(onTheDeadline.outcome).toEqual({ result: 'ok', at: 60 });
    expect(justLate.outcome).toEqual({ result: 'timeout', at: 60 + VERDICT });
  });

  it.each(['node', 'bun'] as const)(
    'takes a reply that reached the socket in time while a poll phase was busy with requests (%s phase order)',
    async (order) => {
      // The Bun host's fail-opens in the Redis Cluster fleet test (CI, 2026-11-28): a poll phase
      // that handles requests from 40 to 52 ms; the store's reply reaches the socket at 45, so it
      // is read in the next poll. The timer due at 50 fires at 52, 2 ms late: no stall to give
      // back. Bun runs the timer's immediate before that next poll.
      const loop = fakeLoop(order);
      const limit = timeLimit(50, loop.clock);
      const answered = watch(loop, limit.wrap(loop.reply(45, 'in time')));
      const unanswered = watch(loop, limit.wrap(never()));
      loop.request(40, 12);
      await loop.runUntil(1_000);
      expect(answered.outcome?.result).toBe('ok');
      expect(unanswered.outcome?.result).toBe('timeout');
      expect(unanswered.outcome?.at).toBeLessThanOrEqual(52 + VERDICT);
    },
  );

  it('counts from the end of the turn that sent the call, not from the wrap', async () => {
    const loop = fakeLoop();
    const limit = timeLimit(50, loop.clock);
    const call = watch(loop, limit.wrap(never()));
    loop.hold(30); // the rest of the sending turn: the command leaves at its end
    await loop.runUntil(79);
    expect(call.outcome).toBeNull();
    await loop.runUntil(80 + VERDICT);
    expect(call.outcome).toEqual({ result: 'timeout', at: 80 + VERDICT });
  });

  it('gives the calls waiting while the host held the loop that time back', async () => {
    const loop = fakeLoop();
    const limit = timeLimit(50, loop.clock);
    const answered = watch(loop, limit.wrap(loop.reply(220, 'in time')));
    const unanswered = watch(loop, limit.wrap(never()));
    await loop.runUntil(0); // the turn ended: the calls were sent, due at 50
    // The host's own work holds the loop four times the limit; the store answers 20 ms after.
    loop.hold(200);
    await loop.runUntil(1_000);
    expect(answered.outcome).toEqual({ result: 'ok', at: 220 });
    // The unanswered call still times out: 50 ms of an idle loop after the stall.
    expect(unanswered.outcome).toEqual({ result: 'timeout', at: 250 + VERDICT });
  });

  it('a settlement after the timeout goes unnoticed (no unhandled rejection)', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const limit = timeLimit(10);
      const lateFailure = later(30, null).then(() => {
        throw new Error('late');
      });
      await expect(limit.wrap(lateFailure)).rejects.toBeInstanceOf(StoreTimeoutError);
      await later(40, null);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('a thousand calls in flight share one timer, and calls after a quiet spell are timed again', async () => {
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const limit = timeLimit(30);
    const calls = Array.from({ length: 1000 }, (_, i) => limit.wrap(i % 2 === 0 ? Promise.resolve(i) : never()));
    const settled = await Promise.allSettled(calls);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(500);
    expect(settled.filter((s) => s.status === 'rejected' && s.reason instanceof StoreTimeoutError)).toHaveLength(500);
    // One timer at a time: armed for the head, again for the calls made after it (a few, not 1,000).
    expect(timers.mock.calls.length).toBeLessThan(10);
    await later(50, null);
    await expect(limit.wrap(never())).rejects.toBeInstanceOf(StoreTimeoutError);
  });
});
