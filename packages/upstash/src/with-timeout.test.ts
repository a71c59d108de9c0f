/** timeLimit: each call settles as its work does, or with StoreTimeoutError after `ms`; one timer serves them all. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreTimeoutError, timeLimit } from './with-timeout.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const never = () => new Promise<never>(() => {});

describe('timeLimit', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes on a value or an error that comes in time', async () => {
    const limit = timeLimit(200);
    await expect(limit.wrap(later(5, 'ok'))).resolves.toBe('ok');
    const failure = new Error('store said no');
    await expect(limit.wrap(Promise.reject(failure))).rejects.toBe(failure);
  });

  it('rejects with StoreTimeoutError once ms have passed, not before', async () => {
    const limit = timeLimit(60);
    const started = performance.now();
    const error = await limit.wrap(never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreTimeoutError);
    expect((error as Error).message).toBe('rate-limit store did not answer within 60 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
  });

  it('each call has its own deadline: calls made later time out later, quick ones are untouched', async () => {
    const limit = timeLimit(80);
    const started = performance.now();
    const outcomes: Array<[string, number]> = [];
    const track = (name: string, work: Promise<unknown>) =>
      limit.wrap(work).then(
        () => outcomes.push([`${name} ok`, performance.now() - started]),
        (error: unknown) => outcomes.push([`${name} ${error instanceof StoreTimeoutError ? 'timeout' : 'error'}`, performance.now() - started]),
      );
    const first = track('first', never());
    await later(40, null);
    const second = track('second', never());
    const quick = track('quick', later(10, 1));
    const slowButInTime = track('slow', later(60, 2));
    await Promise.all([first, second, quick, slowButInTime]);
    expect(outcomes.map(([name]) => name)).toEqual(['quick ok', 'first timeout', 'slow ok', 'second timeout']);
    const at = Object.fromEntries(outcomes);
    expect(at['first timeout']).toBeGreaterThanOrEqual(79);
    expect(at['second timeout']).toBeGreaterThanOrEqual(119);
  });

  it('gives the calls waiting while the host held the loop that time back', async () => {
    const limit = timeLimit(50);
    let answer!: (value: string) => void;
    const outcome = limit.wrap(new Promise<string>((resolve) => (answer = resolve)));
    await new Promise((resolve) => setImmediate(resolve)); // the turn ended: the call was sent
    // The host's own work holds the loop four times the limit; the store needs 20 ms once it is free.
    const until = performance.now() + 200;
    while (performance.now() < until) {
      // spin
    }
    setTimeout(() => answer('in time'), 20);
    await expect(outcome).resolves.toBe('in time');
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
