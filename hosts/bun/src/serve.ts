/**
 * Bun.serve around the core fetch handler: the request URL rule of host-kit (a malformed Host
 * is 400; Bun's own URL is rebuilt on the validated origin), client IP from the socket (or
 * X-Forwarded-For with TRUST_PROXY), the host-level body cap, background work tracked for a
 * graceful stop.
 */
import { ApiError, type Service } from '@catalogue/core';
import { capRequestBody, clientIpFrom, HOST_MAX_BODY_BYTES, hostRefusal, routedRequest } from '@catalogue/host-kit';

export interface BunServerOptions {
  port: number;
  hostname?: string;
  trustProxy: boolean;
  maxBodyBytes?: number;
  /** BASE_URL's origin when it is set (HostEnv.publicOrigin): the origin of every request URL. */
  publicOrigin?: string | null;
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
      const routed = routedRequest(request, options.publicOrigin ?? null, `localhost:${bunServer.port}`);
      if (routed instanceof ApiError) return afterDraining(request, hostRefusal(routed));
      const clientIp = clientIpFrom(request.headers.get('x-forwarded-for'), options.trustProxy, bunServer.requestIP(request)?.address);
      const capped = routed.body === null ? routed : capRequestBody(routed, maxBody);
      if (!(capped instanceof Response)) return service.fetch(capped, { clientIp, waitUntil });
      return afterDraining(routed, capped);
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

/**
 * A refusal sent once the client's body is read and discarded (Bun bounds it at
 * maxRequestBodySize): closing mid-upload resets the connection, and a reset can make the
 * client's kernel drop the answer unread.
 */
async function afterDraining(request: Request, refusal: Response): Promise<Response> {
  if (request.body) await drain(request.body);
  return refusal;
}

async function drain(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  try {
    while (!(await reader.read()).done) {}
  } catch {
    // the client went away: nothing left to answer
  }
}
