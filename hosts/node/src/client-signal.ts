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

/** Gives `request` a `signal` of its own, over the bridge's getter. */
export function withClientSignal(request: Request, incoming: IncomingMessage, outgoing: ServerResponse): void {
  (request as unknown as { [STATE]: ClientSignal })[STATE] = new ClientSignal(incoming, outgoing);
  Object.defineProperty(request, 'signal', SIGNAL);
}
