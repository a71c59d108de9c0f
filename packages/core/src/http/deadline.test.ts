import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { abortProbeOf, CLIENT_GONE, DeadlineQueue, requestAborted } from './deadline.js';

const aborted = { status: 504, code: 'request_aborted' };

/** A request whose `signal` getter reports whether it was read (Node's bridge builds a full Request on that read). */
function requestWith(signal?: AbortSignal) {
  const reads = { count: 0 };
  return {
    reads,
    request: {
      get signal() {
        reads.count++;
        return signal;
      },
    },
  };
}

describe('DeadlineQueue and RequestLifetime', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('race resolves with the work when it finishes in time; dispose ends the lifetime', async () => {
    const queue = new DeadlineQueue(1000);
    const lifetime = queue.start({});
    await expect(lifetime.race(Promise.resolve('done'))).resolves.toBe('done');
    expect(lifetime.ended).toBe(false);
    lifetime.dispose();
    expect(lifetime.ended).toBe(true);
    expect(queue.head).toBeNull();
  });

  it('at the deadline the race rejects with 504 request_aborted and the signal aborts', async () => {
    const queue = new DeadlineQueue(1000);
    const lifetime = queue.start({});
    const signal = lifetime.signal;
    const raced = lifetime.race(new Promise(() => {}));
    vi.advanceTimersByTime(999);
    expect(lifetime.ended).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(raced).rejects.toMatchObject(aborted);
    expect(lifetime.ended).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(ApiError);
    await expect(lifetime.race(Promise.resolve(1))).rejects.toMatchObject(aborted);
  });

  it('makes no AbortSignal and never reads the request signal unless a port asks for one', () => {
    const queue = new DeadlineQueue(1000);
    const { request, reads } = requestWith(new AbortController().signal);
    const lifetime = queue.start(request);
    vi.advanceTimersByTime(1000);
    expect(lifetime.ended).toBe(true);
    expect(reads.count).toBe(0);
    // Read after the end: already aborted.
    expect(lifetime.signal.aborted).toBe(true);
  });

  it('a client disconnect ends the lifetime once its signal is read', async () => {
    const client = new AbortController();
    const { request, reads } = requestWith(client.signal);
    const lifetime = new DeadlineQueue(1000).start(request);
    const signal = lifetime.signal;
    expect(reads.count).toBe(1);
    const raced = lifetime.race(new Promise(() => {}));
    client.abort();
    await expect(raced).rejects.toMatchObject(aborted);
    expect(signal.aborted).toBe(true);
    expect(lifetime.ended).toBe(true);
  });

  it('a client already gone when the signal is first read ends the lifetime at once', () => {
    const client = new AbortController();
    client.abort();
    const lifetime = new DeadlineQueue(1000).start(requestWith(client.signal).request);
    expect(lifetime.signal.aborted).toBe(true);
    expect(lifetime.ended).toBe(true);
  });

  it('one timer serves every request: each expires at its own deadline, disposed ones leave the queue', async () => {
    const queue = new DeadlineQueue(100);
    const first = queue.start({});
    vi.advanceTimersByTime(30);
    const second = queue.start({});
    vi.advanceTimersByTime(30);
    const third = queue.start({});
    second.dispose();
    expect([queue.head, queue.tail]).toEqual([first, third]);
    vi.advanceTimersByTime(40); // t = 100: the first is due
    expect([first.ended, third.ended]).toEqual([true, false]);
    expect(queue.head).toBe(third);
    vi.advanceTimersByTime(59); // t = 159
    expect(third.ended).toBe(false);
    vi.advanceTimersByTime(1); // t = 160
    expect(third.ended).toBe(true);
    expect([queue.head, queue.tail]).toEqual([null, null]);
  });

  it('aborted asks the host probe, never the request signal, and a client found gone ends the lifetime', async () => {
    const client = new AbortController();
    const { request, reads } = requestWith(client.signal);
    // The probe reads the request it hangs on (as the Node host's does), so it must be called as a method.
    const probed = Object.assign(request, {
      gone: false,
      [CLIENT_GONE](this: { gone: boolean }) {
        return this.gone;
      },
    });
    const lifetime = new DeadlineQueue(1000).start(probed);
    const raced = lifetime.race(new Promise(() => {}));
    expect(lifetime.aborted).toBe(false);
    probed.gone = true;
    expect(lifetime.aborted).toBe(true);
    await expect(raced).rejects.toMatchObject(aborted);
    expect(lifetime.ended).toBe(true);
    expect(reads.count).toBe(0);
    // A signal read afterwards says the same.
    expect(lifetime.signal.aborted).toBe(true);
  });

  it('aborted falls back to the request signal without a host probe, and is true at the deadline', () => {
    const client = new AbortController();
    const lifetime = new DeadlineQueue(1000).start(requestWith(client.signal).request);
    expect(lifetime.aborted).toBe(false);
    client.abort();
    expect(lifetime.aborted).toBe(true);
    expect(lifetime.ended).toBe(true);

    const late = new DeadlineQueue(1000).start({});
    expect(late.aborted).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(late.aborted).toBe(true);
  });

  it('an answered request is ended but not aborted, even if the client leaves afterwards', () => {
    let gone = false;
    const lifetime = new DeadlineQueue(1000).start({ [CLIENT_GONE]: () => gone });
    lifetime.dispose();
    gone = true;
    expect(lifetime.ended).toBe(true);
    expect(lifetime.aborted).toBe(false);
  });

  it("abortProbeOf: the lifetime itself, a caller's signal, or nothing", () => {
    const lifetime = new DeadlineQueue(1000).start({});
    expect(abortProbeOf(lifetime)).toBe(lifetime);
    const { signal } = new AbortController();
    expect(abortProbeOf({ signal })).toBe(signal);
    expect(abortProbeOf({})).toBeUndefined();
    expect(abortProbeOf(undefined)).toBeUndefined();
  });

  it('an error of the work passes through the race unchanged', async () => {
    const lifetime = new DeadlineQueue(1000).start({});
    const failure = new Error('store down');
    await expect(lifetime.race(Promise.reject(failure))).rejects.toBe(failure);
  });

  it('requestAborted is the 504 of the error table', () => {
    expect(requestAborted()).toMatchObject(aborted);
  });

  it('requestAborted says why', () => {
    expect(requestAborted().body).toEqual({ message: 'the request was cancelled by its deadline or by the client' });
  });

  it('one timer for the whole queue, however many requests start', () => {
    const queue = new DeadlineQueue(1000);
    for (let i = 0; i < 3; i++) queue.start({});
    expect(vi.getTimerCount()).toBe(1);
  });

  it('the signal is made once: every port gets the same one', () => {
    const lifetime = new DeadlineQueue(1000).start({});
    expect(lifetime.signal).toBe(lifetime.signal);
  });

  it('expiring an answered request changes nothing: it is not aborted', () => {
    const lifetime = new DeadlineQueue(1000).start({});
    lifetime.dispose();
    lifetime.expire();
    expect(lifetime.aborted).toBe(false);
    expect(lifetime.ended).toBe(true);
  });
});
