/**
 * The Deno host's serve(service, options) → {url, close}: Deno.serve around the core fetch
 * handler, shared by the CLI entry (main.ts) and the Deno Deploy entry (deploy.ts). The request
 * URL rule of host-kit (Deno builds request.url from the raw Host unchecked; a malformed Host
 * is 400 and the path is the target Deno received), the client IP from the connection (or
 * X-Forwarded-For with TRUST_PROXY), the host-level body cap, background work tracked for a
 * graceful stop, and Deno.cron for the jobs.
 */
import { ApiError, type Service } from '@catalogue/core';
import {
  type BackgroundWork,
  backgroundWork,
  capRequestBody,
  clientIpFrom,
  HOST_GRACE_MS,
  HOST_MAX_BODY_BYTES,
  hostRefusal,
  type JobSchedule,
  routedRequest,
  type ServedHost,
  type ServeOptions,
  withinGrace,
} from '@catalogue/host-kit';

export interface RunningDenoServer extends ServedHost {
  server: Deno.HttpServer<Deno.NetAddr>;
}

export function handlerFor(
  service: Service,
  options: Pick<ServeOptions, 'port' | 'trustProxy' | 'maxBodyBytes' | 'publicOrigin'>,
  work: BackgroundWork = backgroundWork(),
): Deno.ServeHandler<Deno.NetAddr> {
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  // Only a request without Host (HTTP/1.0) uses it; on Deno Deploy every request carries one.
  const fallbackHost = options.port ? `localhost:${options.port}` : 'localhost';
  return (request, info) => {
    const routed = routedRequest(request, options.publicOrigin ?? null, fallbackHost);
    if (routed instanceof ApiError) return hostRefusal(routed);
    const clientIp = clientIpFrom(request.headers.get('x-forwarded-for'), options.trustProxy, info.remoteAddr.hostname);
    const capped = routed.body === null ? routed : capRequestBody(routed, maxBody);
    if (capped instanceof Response) return capped;
    return service.fetch(capped, { clientIp, waitUntil: work.waitUntil });
  };
}

/** serve(): without a port (Deno Deploy) the platform picks it. */
export function serve(service: Service, options: ServeOptions): Promise<RunningDenoServer> {
  const graceMs = options.graceMs ?? HOST_GRACE_MS;
  const work = backgroundWork();
  const serveOptions: Deno.ServeTcpOptions = {
    onListen: () => {},
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
  };
  const server = Deno.serve(serveOptions, handlerFor(service, options, work));
  return Promise.resolve({
    server,
    url: `http://localhost:${server.addr.port}`,
    async close() {
      // shutdown() stops accepting and resolves once in-flight requests have answered.
      await withinGrace(server.shutdown(), graceMs);
      await work.settle(graceMs);
    },
  });
}

/** runJobs every minute through Deno.cron (on Deno Deploy a managed schedule); it cannot be stopped. */
export function cronJobs(service: Pick<Service, 'runJobs'>): JobSchedule {
  Deno.cron('catalogue runJobs', '* * * * *', () => service.runJobs(new Date()));
  return { stop: () => {} };
}
