/**
 * `request.signal` on the Node host without the bridge's full Request (issue 14). The core's
 * ports read the signal of a request's lifetime (http/deadline.ts) for every database call, and
 * on @hono/node-server's lightweight Request that getter builds a whole undici Request (URL,
 * headers, body, its own AbortController): on a request that reaches PostgreSQL (no key cache,
 * a cache miss) that was the largest single cost of the request.
 *
 * The signal made here aborts as the bridge's does: when the response closes before it was
 * finished (the client went away), with the same reasons. Read after that point, it is aborted
 * already.
 *
 * `withClientSignal` gives every request the same getter (a per-request function as getter
 * would give each request object a hidden class of its own, and V8 a new map per request to
 * collect); the request's own state sits behind a symbol.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CLIENT_GONE } from '@catalogue/core';

const GONE = 'Client connection prematurely closed.';
const STATE = Symbol('clientSignal');

/** One request's signal, made on first read. */
class ClientSignal {
  #controller: AbortController | null = null;

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
  ) {}

  get signal(): AbortSignal {
    if (this.#controller !== null) return this.#controller.signal;
    this.#controller = new AbortController();
    if (this.outgoing.closed) this.abortIfGone();
    else this.outgoing.once('close', () => this.abortIfGone());
    return this.#controller.signal;
  }

  /** The client went away: the response closed before it was finished, or the request errored. */
  get gone(): boolean {
    return this.incoming.errored !== null || (this.outgoing.closed && !this.outgoing.writableFinished);
  }

  private abortIfGone(): void {
    if (this.incoming.errored) this.#controller?.abort(this.incoming.errored.toString());
    else if (!this.outgoing.writableFinished) this.#controller?.abort(GONE);
  }
}

const SIGNAL: PropertyDescriptor = {
  get(this: { [STATE]: ClientSignal }) {
    return this[STATE].signal;
  },
};

/**
 * Core's CLIENT_GONE probe (http/deadline.ts): the same answer the signal would give, read off
 * the response's state with nothing allocated. One function for every request, like SIGNAL.
 */
function clientGone(this: { [STATE]: ClientSignal }): boolean {
  return this[STATE].gone;
}

/** Gives `request` a `signal` of its own, over the bridge's getter, and core's CLIENT_GONE probe. */
export function withClientSignal(request: Request, incoming: IncomingMessage, outgoing: ServerResponse): void {
  const target = request as unknown as { [STATE]: ClientSignal; [CLIENT_GONE]: () => boolean };
  target[STATE] = new ClientSignal(incoming, outgoing);
  target[CLIENT_GONE] = clientGone;
  Object.defineProperty(request, 'signal', SIGNAL);
}
