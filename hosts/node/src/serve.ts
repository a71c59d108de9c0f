/**
 * The Node host's serve(service, options) → {url, close}, and the pieces it is made of for
 * embedding (createNodeServer, listen): node:http around the core fetch handler. The
 * IncomingMessage → Request bridge is
 * @hono/node-server's listener: it builds the Request lazily (a GET that only reads the URL
 * and a header never allocates a full WHATWG Request), streams bodies, and aborts
 * request.signal when the client goes away.
 *
 * In front of it sit the host-level body cap (a declared Content-Length over the cap never
 * reaches the service: read and dropped, then answered 413 — refused-body.ts; a chunked body is
 * counted while the service reads it)
 * and the request URL rule of host-kit (request-url.ts): a malformed Host is answered 400, and
 * the URL is the target Node received after a validated origin. What Node's parser refuses
 * before there is a request is answered by client-error.ts.
 *
 * The request's headers are an IncomingHeaders over Node's rawHeaders rather than the undici
 * Headers the bridge would build on first read (incoming-headers.ts), its signal one of
 * client-signal.ts rather than the full Request the bridge would build for it, and a body with
 * a declared length one stream over the IncomingMessage (incoming-body.ts), for the same reason.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, type Service } from '@catalogue/core';
import {
  type BackgroundWork,
  backgroundWork,
  capRequestBody,
  clientIpFrom,
  declaredTooLarge,
  HOST_GRACE_MS,
  HOST_MAX_BODY_BYTES,
  hostRefusal,
  payloadTooLargeResponse,
  requestUrl,
  type ServedHost,
  type ServeOptions,
  type TrustProxy,
} from '@catalogue/host-kit';
import { getRequestListener } from '@hono/node-server';
import { answerClientError } from './client-error.js';
import { withClientSignal } from './client-signal.js';
import { withIncomingBody } from './incoming-body.js';
import { IncomingHeaders } from './incoming-headers.js';
import { refuseDeclaredBody } from './refused-body.js';

export type NodeServerOptions = Pick<ServeOptions, 'trustProxy' | 'maxBodyBytes' | 'publicOrigin'>;

export interface RunningServer extends ServedHost {
  server: Server;
}

/** serve(): a node:http server around the service, listening on options.port (default 8080). */
export function serve(service: Service, options: ServeOptions): Promise<RunningServer> {
  const server = createNodeServer(service, options);
  return listen(server, options.port ?? 8080, options.hostname, options.graceMs);
}

export function clientIpOf(incoming: IncomingMessage, trustProxy: TrustProxy): string {
  const forwarded = incoming.headers['x-forwarded-for'];
  return clientIpFrom(Array.isArray(forwarded) ? forwarded[0] : forwarded, trustProxy, incoming.socket.remoteAddress);
}

/** Each server's background work (limiter lease release, usage), awaited by its close. */
const workOf = new WeakMap<Server, BackgroundWork>();

export function createNodeServer(service: Service, options: NodeServerOptions): Server {
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  const work = backgroundWork();
  const waitUntil = work.waitUntil;
  const listener = getRequestListener(
    (request, env) => {
      const incoming = (env as { incoming: IncomingMessage }).incoming;
      const context = { clientIp: clientIpOf(incoming, options.trustProxy), waitUntil };
      // Own properties over the bridge's lazy getters, which would build a full undici Request.
      // A full Request made later for the body copies these same header lines (IncomingHeaders
      // is iterable like Headers) and has its own signal, aborted alike.
      Object.defineProperty(request, 'headers', { value: new IncomingHeaders(incoming.rawHeaders) });
      withClientSignal(request, incoming, (env as { outgoing: ServerResponse }).outgoing);
      // Only a body without Content-Length needs counting; GET/HEAD never carry one here.
      if (incoming.headers['transfer-encoding'] !== undefined && incoming.headers['content-length'] === undefined) {
        const capped = capRequestBody(request, maxBody);
        return capped instanceof Response ? capped : service.fetch(capped, context);
      }
      // A declared body is read from the IncomingMessage directly (incoming-body.ts).
      if (incoming.method !== 'GET' && incoming.method !== 'HEAD') withIncomingBody(request, incoming);
      return service.fetch(request, context);
    },
    // The bridge's own refusals (a backslash in the path) in the spec's shape, not a bare 400.
    { errorHandler: (error) => hostRefusal(bridgeRefusal(error)) },
  );
  // Node's own Host check answers a bare 400; the URL rule answers it in the spec's shape.
  const server = createServer({ requireHostHeader: false }, (incoming, outgoing) => {
    if (declaredTooLarge(incoming.headers['content-length'], maxBody))
      return refuseDeclaredBody(incoming, () => writeRefusal(outgoing, payloadTooLargeResponse(maxBody)));
    const url = requestUrl(
      {
        target: incoming.url ?? '',
        host: incoming.headers.host,
        scheme: 'http',
        hostRequired: incoming.httpVersion !== '1.0',
        fallbackHost: `localhost:${incoming.socket.localPort}`,
      },
      options.publicOrigin ?? null,
    );
    if (url instanceof ApiError) return writeRefusal(outgoing, hostRefusal(url));
    // @hono/node-server takes an absolute-form target as the Request's URL as it is, keeping
    // its lightweight Request (no undici Request unless the service reads the body or signal).
    incoming.url = url;
    return listener(incoming, outgoing);
  });
  server.on('clientError', answerClientError);
  workOf.set(server, work);
  return server;
}

function bridgeRefusal(error: unknown): ApiError {
  if (error instanceof Error && error.name === 'RequestError') {
    const reason = error.cause instanceof Error ? error.cause : error;
    return new ApiError('bad_request', { message: `malformed request: ${reason.message}` });
  }
  return new ApiError('internal');
}

/**
 * A refusal answered before the service sees the request; the connection closes once it is
 * out (a refused request's body, if any, was dropped or is not worth reading: refused-body.ts).
 */
function writeRefusal(outgoing: ServerResponse, response: Response): void {
  void response.text().then((body) => {
    outgoing.shouldKeepAlive = false;
    outgoing.writeHead(response.status, { ...Object.fromEntries(response.headers), 'content-length': Buffer.byteLength(body) });
    // Close once the answer is out rather than draining a body we refused.
    outgoing.end(body, () => outgoing.socket?.destroySoon?.());
  });
}

export function listen(server: Server, port: number, host = '0.0.0.0', graceMs = HOST_GRACE_MS): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://localhost:${address.port}`,
        close: () => closeGracefully(server, graceMs),
      });
    });
  });
}

async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    // Idle keep-alive sockets would hold close() open; in-flight ones finish first.
    server.closeIdleConnections();
  });
  await workOf.get(server)?.settle(graceMs);
}
