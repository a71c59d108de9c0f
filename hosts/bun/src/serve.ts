/**
 * The Bun host's serve(service, options) → {url, close}: Bun.serve around the core fetch
 * handler, with the request URL rule of host-kit (a malformed Host is 400; Bun's own URL is
 * rebuilt on the validated origin), the client IP from the socket (or X-Forwarded-For with
 * TRUST_PROXY), the host-level body cap, and background work tracked for a graceful stop.
 */
import { ApiError, type Service } from '@catalogue/core';
import {
  backgroundWork,
  capRequestBody,
  clientIpFrom,
  HOST_GRACE_MS,
  HOST_MAX_BODY_BYTES,
  hostRefusal,
  routedRequest,
  type ServedHost,
  type ServeOptions,
  withinGrace,
} from '@catalogue/host-kit';

export interface RunningBunServer extends ServedHost {
  server: Bun.Server;
}

export async function serve(service: Service, options: ServeOptions): Promise<RunningBunServer> {
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  const graceMs = options.graceMs ?? HOST_GRACE_MS;
  const work = backgroundWork();
  const server = Bun.serve({
    port: options.port ?? 8080,
    hostname: options.hostname ?? '0.0.0.0',
    // SO_REUSEPORT: several Bun processes on one PORT, the kernel spreading connections over
    // them (Linux), as the Node host's WEB_CONCURRENCY workers do (docs/hosts.md, "Bun").
    reusePort: true,
    // Bun's own cap answers with a bare 413; ours answers in the spec's shape, so Bun's sits above it.
    maxRequestBodySize: maxBody * 4,
    fetch(request, bunServer) {
      const routed = routedRequest(request, options.publicOrigin ?? null, `localhost:${bunServer.port}`);
      if (routed instanceof ApiError) return afterDraining(request, hostRefusal(routed));
      const clientIp = clientIpFrom(request.headers.get('x-forwarded-for'), options.trustProxy, bunServer.requestIP(request)?.address);
      const capped = routed.body === null ? routed : capRequestBody(routed, maxBody);
      if (!(capped instanceof Response)) return service.fetch(capped, { clientIp, waitUntil: work.waitUntil });
      return afterDraining(routed, capped);
    },
  });
  return {
    server,
    url: `http://localhost:${server.port}`,
    async close() {
      await withinGrace(server.stop(false), graceMs);
      await work.settle(graceMs);
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
