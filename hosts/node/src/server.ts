/**
 * node:http around the core fetch handler. The IncomingMessage → Request bridge is
 * @hono/node-server's listener (lean, streams bodies, aborts request.signal on disconnect).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Service } from '@catalogue/core';

export interface NodeServerOptions {
  trustProxy: boolean;
  /** How long shutdown waits for in-flight requests before closing sockets. */
  shutdownGraceMs?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Stop accepting, finish in-flight requests (up to the grace period), then close. */
  close(): Promise<void>;
}

export function clientIpOf(incoming: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = incoming.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return incoming.socket.remoteAddress ?? 'unknown';
}

export function createNodeServer(service: Service, options: NodeServerOptions): Server {
  const pending = new Set<Promise<unknown>>();
  const listener = getRequestListener((request, env) =>
    service.fetch(request, {
      clientIp: clientIpOf((env as { incoming: IncomingMessage }).incoming, options.trustProxy),
      waitUntil(promise) {
        pending.add(promise);
        promise.finally(() => pending.delete(promise));
      },
    }),
  );
  return createServer(listener);
}

export function listen(server: Server, port: number, host = '0.0.0.0', graceMs = 15_000): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://localhost:${address.port}`,
        close: () => closeGracefully(server, graceMs),
      });
    });
  });
}

function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    // Idle keep-alive sockets would hold close() open; in-flight ones finish first.
    server.closeIdleConnections();
  });
}
