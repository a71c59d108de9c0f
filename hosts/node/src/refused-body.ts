/**
 * A request whose declared Content-Length is over the host's cap is refused with 413, but its
 * body is read and dropped first, up to a bound: HTTP clients such as fetch (undici) write the
 * whole body before they read an answer, and a host that answers and closes mid-upload makes
 * that write fail with EPIPE or a reset, so the client never sees the 413 (node-fetch#555;
 * nginx's "lingering close" exists for the same reason). A body declared past the bound, or one
 * that stops arriving, is answered at once and the connection closed: reading gigabytes to be
 * polite is an abuse path, and a refusal must not wait for a client that stalls.
 */
import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';

/** The most a refused body may declare and still be read and dropped before the 413 (8 MB). */
export const REFUSED_BODY_DRAIN_BYTES = 8 * 1024 * 1024;
/** How long a refused body may take to arrive before the 413 is sent without it. */
export const REFUSED_BODY_DRAIN_MS = 5_000;

/** Drops the refused request's declared body (within the bounds above), then calls answer() once. */
export function refuseDeclaredBody(incoming: IncomingMessage, answer: () => void): void {
  if (Number(incoming.headers['content-length']) > REFUSED_BODY_DRAIN_BYTES) {
    answer();
    return;
  }
  let answered = false;
  const once = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    answer();
  };
  const timer = setTimeout(once, REFUSED_BODY_DRAIN_MS);
  timer.unref();
  // The body's end, an error or the client gone: whichever comes first.
  finished(incoming, once);
  incoming.resume();
}
