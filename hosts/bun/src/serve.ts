/**
 * Bun.serve around the core fetch handler: client IP from the socket (or X-Forwarded-For with
 * TRUST_PROXY), the host-level body cap, background work tracked for a graceful stop.
 */
import type { Service } from '@catalogue/core';
import { capRequestBody, clientIpFrom, HOST_MAX_BODY_BYTES } from '@catalogue/host-kit';

export interface BunServerOptions {
  port: number;
  hostname?: string;
  trustProxy: boolean;
  maxBodyBytes?: number;
}

export interface RunningBunServer {
  server: Bun.Server;
  url: string;
  /** Stop accepting, let in-flight requests and background work finish (up to graceMs). */
  close(graceMs?: number): Promise<void>;
}

export function serveWithBun(service: Service, options: BunServerOptions): RunningBunServer {
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (promise: Promise<unknown>) => {
    pending.add(promise);
    promise.finally(() => pending.delete(promise));
  };
  const server = Bun.serve({
    port: options.port,
    hostname: options.hostname ?? '0.0.0.0',
    // Bun's own cap answers with a bare 413; ours answers in the spec's shape, so Bun's sits above it.
    maxRequestBodySize: maxBody * 4,
    fetch(request, bunServer) {
      const clientIp = clientIpFrom(request.headers.get('x-forwarded-for'), options.trustProxy, bunServer.requestIP(request)?.address);
      const capped = request.body === null ? request : capRequestBody(request, maxBody);
      if (!(capped instanceof Response)) return service.fetch(capped, { clientIp, waitUntil });
      // Read and discard what the client is still sending (Bun bounds it at maxRequestBodySize)
      // before answering 413: closing mid-upload resets the connection, and a reset can make the
      // client's kernel drop the answer unread.
      return drain(request.body).then(() => capped);
    },
  });
  return {
    server,
    url: `http://localhost:${server.port}`,
    async close(graceMs = 15_000) {
      const timeout = new Promise((resolve) => setTimeout(resolve, graceMs));
      await Promise.race([server.stop(false), timeout]);
      await Promise.race([Promise.allSettled([...pending]), timeout]);
      await server.stop(true);
    },
  };
}

async function drain(body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  try {
    while (!(await reader.read()).done) {}
  } catch {
    // the client went away: nothing left to answer
  }
}
