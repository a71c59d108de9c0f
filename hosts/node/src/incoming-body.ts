/**
 * `request.body` on the Node host without the bridge's full Request (issue 14). On
 * @hono/node-server's lightweight Request the body getter builds a whole undici Request (URL,
 * headers, signal, an AbortController) around two web streams over the IncomingMessage (a pull
 * wrapper around `Readable.toWeb`, which copies every chunk): for the ~4 KB body of a 500-id
 * batch that was ~130 µs of the host's CPU per request, more than reading and parsing the ids.
 *
 * Used for a request that declares its Content-Length (serve.ts; a chunked body goes through
 * the bridge and host-kit's counting stream instead). The stream here is one ReadableStream
 * fed by the IncomingMessage's chunks as they are, with the bridge's back-pressure (paused when
 * the stream's queue is full, resumed on pull); it errors as the bridge's does when the client
 * goes away before the end, and a cancel (core's readBodyCapped past a route's cap) stops
 * reading and leaves the rest to the bridge, which drains or closes as before.
 *
 * `text()`, `json()`, `arrayBuffer()`, `blob()` and `formData()` read the same stream, so a
 * reader of either kind never meets a second consumer of the IncomingMessage.
 */
import type { IncomingMessage } from 'node:http';

const STATE = Symbol('incomingBody');

type WithBody = { [STATE]: IncomingBody; headers: Headers };

/** One request's body stream, made on first read. */
class IncomingBody {
  #stream: ReadableStream<Uint8Array> | null = null;

  constructor(private readonly incoming: IncomingMessage) {}

  get stream(): ReadableStream<Uint8Array> {
    if (this.#stream === null) this.#stream = streamOf(this.incoming);
    return this.#stream;
  }
}

function streamOf(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  const stop = () => {
    open = false;
    incoming.off('data', onData);
    incoming.off('end', onEnd);
    incoming.off('error', onError);
    incoming.off('close', onClose);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  function onData(chunk: Buffer): void {
    controller.enqueue(chunk);
    if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
  }
  function onEnd(): void {
    stop();
    controller.close();
  }
  function onError(error: Error): void {
    stop();
    controller.error(error);
  }
  // Closed before its end without an error event: the client went away mid-body.
  function onClose(): void {
    if (open && !incoming.complete) onError(new Error('aborted'));
  }
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (incoming.readableEnded) {
        open = false;
        c.close();
        return;
      }
      incoming.on('data', onData);
      incoming.on('end', onEnd);
      incoming.on('error', onError);
      incoming.on('close', onClose);
    },
    pull() {
      if (open) incoming.resume();
    },
    cancel() {
      if (!open) return;
      stop();
      incoming.pause();
    },
  });
}

/** Reads the body whole through a Response over the same stream (the content type for blob and formData). */
function read<K extends 'text' | 'json' | 'arrayBuffer' | 'blob' | 'formData'>(kind: K): PropertyDescriptor {
  return {
    value(this: WithBody) {
      const type = this.headers.get('content-type');
      return new Response(this[STATE].stream, type === null ? {} : { headers: { 'content-type': type } })[kind]();
    },
  };
}

const DESCRIPTORS: PropertyDescriptorMap = {
  body: {
    get(this: WithBody) {
      return this[STATE].stream;
    },
  },
  text: read('text'),
  json: read('json'),
  arrayBuffer: read('arrayBuffer'),
  blob: read('blob'),
  formData: read('formData'),
};

/**
 * Gives `request` a body of its own over `incoming`, over the bridge's getters. The same
 * descriptors for every request (per-request closures would give each request object a hidden
 * class of its own); the request's state sits behind a symbol.
 */
export function withIncomingBody(request: Request, incoming: IncomingMessage): void {
  (request as unknown as WithBody)[STATE] = new IncomingBody(incoming);
  Object.defineProperties(request, DESCRIPTORS);
}
