/**
 * node:http around the core fetch handler. The IncomingMessage → Request bridge is
 * @hono/node-server's listener: it builds the Request lazily (a GET that only reads the URL
 * and a header never allocates a full WHATWG Request), streams bodies, and aborts
 * request.signal when the client goes away.
 *
 * In front of it sits the host-level body cap: a declared Content-Length over the cap is
 * answered 413 before any byte is read; a chunked body is counted while the service reads it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Service } from '@catalogue/core';
import { capRequestBody, clientIpFrom, declaredTooLarge, HOST_MAX_BODY_BYTES, payloadTooLargeResponse } from '@catalogue/host-kit';
import { getRequestListener } from '@hono/node-server';

export interface NodeServerOptions {
  trustProxy: boolean;
  /** Host-level request body cap in bytes (default 1 MB). */
  maxBodyBytes?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Stop accepting, finish in-flight requests and background work (up to the grace period), then close. */
  close(): Promise<void>;
}

export function clientIpOf(incoming: IncomingMessage, trustProxy: boolean): string {
  const forwarded = incoming.headers['x-forwarded-for'];
  return clientIpFrom(Array.isArray(forwarded) ? forwarded[0] : forwarded, trustProxy, incoming.socket.remoteAddress);
}

/** Background work handed to waitUntil (limiter lease release, usage), awaited on shutdown. */
const pendingByServer = new WeakMap<Server, Set<Promise<unknown>>>();

export function createNodeServer(service: Service, options: NodeServerOptions): Server {
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>) => {
    pending.add(promise);
    promise.finally(() => pending.delete(promise));
  };
  const listener = getRequestListener((request, env) => {
    const incoming = (env as { incoming: IncomingMessage }).incoming;
    const context = { clientIp: clientIpOf(incoming, options.trustProxy), waitUntil };
    // Only a body without Content-Length needs counting; GET/HEAD never carry one here.
    if (incoming.headers['transfer-encoding'] !== undefined && incoming.headers['content-length'] === undefined) {
      const capped = capRequestBody(request, maxBody);
      return capped instanceof Response ? capped : service.fetch(capped, context);
    }
    return service.fetch(request, context);
  });
  const server = createServer((incoming, outgoing) => {
    if (declaredTooLarge(incoming.headers['content-length'], maxBody)) return refuseTooLarge(outgoing, maxBody);
    return listener(incoming, outgoing);
  });
  pendingByServer.set(server, pending);
  return server;
}

function refuseTooLarge(outgoing: ServerResponse, maxBody: number): void {
  const response = payloadTooLargeResponse(maxBody);
  void response.text().then((body) => {
    outgoing.shouldKeepAlive = false;
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    // Close once the answer is out rather than draining a body we refused.
    outgoing.end(body, () => outgoing.socket?.destroySoon?.());
  });
}

export function listen(server: Server, port: number, host = '0.0.0.0', graceMs = 15_000): Promise<RunningServer> {
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
  const pending = pendingByServer.get(server);
  if (pending?.size) await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, graceMs).unref())]);
}
