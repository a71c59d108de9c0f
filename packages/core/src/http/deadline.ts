import { ApiError } from '../errors/api-error.js';
import type { CallOptions } from '../ports/index.js';

/**
 * A host may give its Request a function under this key that says, without allocating,
 * whether the client went away (the Node host does: hosts/node/src/client-signal.ts). Reading
 * `request.signal` there makes an AbortController and a listener per request; a port that only
 * asks "go on?" needs neither (`RequestLifetime.aborted`).
 */
export const CLIENT_GONE: unique symbol = Symbol.for('catalogue.clientGone');

/** What a port checks before (and after) each step: an AbortSignal or a lifetime both fit. */
export interface AbortProbe {
  readonly aborted: boolean;
}

/**
 * The cheapest way to ask whether `lifetime` ended: the lifetime itself when it answers
 * `aborted` (the service's does, without making its signal), else its signal (a caller's own
 * `{ signal }`), else nothing to check.
 */
export function abortProbeOf(lifetime: CallOptions | undefined): AbortProbe | undefined {
  if (lifetime === undefined) return undefined;
  return 'aborted' in lifetime ? (lifetime as AbortProbe) : lifetime.signal;
}

type ClientProbe = { readonly signal?: AbortSignal; readonly [CLIENT_GONE]?: () => boolean };

export function requestAborted(): ApiError {
  return new ApiError('request_aborted', { message: 'the request was cancelled by its deadline or by the client' });
}

/**
 * Deadlines of the requests in flight. Every request gets the same budget, so deadlines
 * arrive in order: a linked list in arrival order with one timer for its head replaces a
 * timer per request (arming and clearing a timer cost more than the rest of a fast request).
 * When the timer fires with nothing due it re-arms for the new head, or stays off when idle.
 */
export class DeadlineQueue {
  head: RequestLifetime | null = null;
  tail: RequestLifetime | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly budgetMs: number) {}

  /** The request's own signal (the client's disconnect) is read only when a port asks for one (see RequestLifetime). */
  start(request: ClientProbe): RequestLifetime {
    const lifetime = new RequestLifetime(this, request, Date.now() + this.budgetMs);
    lifetime.prev = this.tail;
    if (this.tail) this.tail.next = lifetime;
    else this.head = lifetime;
    this.tail = lifetime;
    if (this.timer === null) this.arm(lifetime.deadlineAt);
    return lifetime;
  }

  unlink(lifetime: RequestLifetime): void {
    if (lifetime.prev) lifetime.prev.next = lifetime.next;
    // Stryker disable next-line ConditionalExpression: a guard against unlinking twice, which expire() and dispose() never do (both check `over`).
    else if (this.head === lifetime) this.head = lifetime.next;
    if (lifetime.next) lifetime.next.prev = lifetime.prev;
    // Stryker disable next-line ConditionalExpression: as above, for the tail.
    else if (this.tail === lifetime) this.tail = lifetime.prev;
    lifetime.prev = lifetime.next = null;
  }

  private arm(at: number): void {
    this.timer = setTimeout(this.fire, Math.max(0, at - Date.now()));
    // The timer stays armed while the queue idles (re-arming per request costs more than the
    // request); unref'd where the runtime can, so it never holds an idle process open.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private readonly fire = (): void => {
    this.timer = null;
    const now = Date.now();
    while (this.head && this.head.deadlineAt <= now) this.head.expire();
    if (this.head) this.arm(this.head.deadlineAt);
  };
}

/**
 * The lifetime of one request: the wall-clock deadline and the client's disconnect.
 *
 * The AbortSignal handed to ports is created only when a port asks for it: an AbortController
 * costs more than the rest of an in-memory request, and most calls never need one. `race`
 * rejects a hung step with 504 request_aborted whether or not anything looked at the signal.
 *
 * The lifetime is itself the CallOptions ports receive (its `signal` is a getter), and it
 * allocates no closures of its own: one object per request on the hot path.
 */
export class RequestLifetime implements EventListenerObject {
  prev: RequestLifetime | null = null;
  next: RequestLifetime | null = null;
  private controller: AbortController | null = null;
  private rejectRace: ((error: unknown) => void) | null = null;
  private over = false;
  /** Ended by the deadline or the client, not by being answered. */
  private expired = false;
  private client: AbortSignal | undefined = undefined;

  constructor(
    private readonly queue: DeadlineQueue,
    /** Read lazily: on Node's bridge, `request.signal` builds a full Request. */
    private readonly request: ClientProbe,
    readonly deadlineAt: number,
  ) {}

  /** True once the deadline passed, the client went away, or the request was answered. */
  get ended(): boolean {
    return this.over;
  }

  /** The deadline passed or the client went away: cancel what runs. */
  expire(): void {
    if (this.over) return;
    this.over = true;
    this.expired = true;
    this.queue.unlink(this);
    const reason = requestAborted();
    this.controller?.abort(reason);
    this.rejectRace?.(reason);
  }

  /** The client's abort event (the lifetime listens as an EventListenerObject: no bound closure). */
  handleEvent(): void {
    this.expire();
  }

  /**
   * True once the deadline passed or the client went away (an answered request is not
   * aborted). Makes no signal: the client is asked through the host's CLIENT_GONE probe when
   * it has one, else through `request.signal`. A client found gone ends the lifetime here, as
   * its abort event would have.
   */
  get aborted(): boolean {
    if (this.expired) return true;
    if (this.over || this.controller) return false;
    // Called as a method: the host's probe reads the request it hangs on.
    const gone = this.request[CLIENT_GONE] !== undefined ? this.request[CLIENT_GONE]() : this.request.signal?.aborted === true;
    if (!gone) return false;
    this.expire();
    return true;
  }

  /** Fires at the deadline or when the client goes away; pass it to every port call. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      this.client = this.request.signal;
      if (this.over) this.controller.abort(requestAborted());
      else if (this.client?.aborted) this.expire();
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: an AbortSignal fires `abort` once; `once` only lets the listener go sooner.
      else this.client?.addEventListener('abort', this, { once: true });
    }
    return this.controller.signal;
  }

  /** Resolves with `work`, or rejects with 504 request_aborted as soon as the lifetime ends. */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.over) return Promise.reject(requestAborted());
    return new Promise<T>((resolve, reject) => {
      this.rejectRace = reject;
      work.then(
        (value) => {
          this.rejectRace = null;
          resolve(value);
        },
        (error: unknown) => {
          this.rejectRace = null;
          reject(error);
        },
      );
    });
  }

  dispose(): void {
    // Stryker disable next-line ConditionalExpression: unlinking a lifetime already unlinked is a no-op (prev and next are null, it is neither head nor tail).
    if (!this.over) {
      this.over = true;
      this.queue.unlink(this);
    }
    // Stryker disable next-line ConditionalExpression,StringLiteral: after the answer the abort listener can only call expire(), a no-op once `over`.
    if (this.controller) this.client?.removeEventListener('abort', this);
  }
}
