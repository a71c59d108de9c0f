/**
 * Deno.serve around the core fetch handler, shared by the CLI entry (main.ts) and the Deno
 * Deploy entry (deploy.ts): the request URL rule of host-kit (Deno builds request.url from the
 * raw Host unchecked; a malformed Host is 400 and the path is the target Deno received), client
 * IP from the connection (or X-Forwarded-For with TRUST_PROXY), the host-level body cap,
 * Deno.cron for the jobs.
 */
import { ApiError, type Service } from '@catalogue/core';
import { capRequestBody, clientIpFrom, HOST_MAX_BODY_BYTES, hostRefusal, routedRequest } from '@catalogue/host-kit';

export interface DenoServerOptions {
  /** Omitted on Deno Deploy, which picks the port itself. */
  port?: number;
  hostname?: string;
  trustProxy: boolean;
  maxBodyBytes?: number;
  /** BASE_URL's origin when it is set (HostEnv.publicOrigin): the origin of every request URL. */
  publicOrigin?: string | null;
  onListen?(address: { hostname: string; port: number }): void;
}

export function handlerFor(
  service: Service,
  options: Pick<DenoServerOptions, 'port' | 'trustProxy' | 'maxBodyBytes' | 'publicOrigin'>,
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
    // Deno keeps the isolate alive for pending promises; the service's background work just runs.
    return service.fetch(capped, { clientIp, waitUntil: () => {} });
  };
}

export function serveWithDeno(service: Service, options: DenoServerOptions): Deno.HttpServer<Deno.NetAddr> {
  const serveOptions: Deno.ServeTcpOptions = {
    onListen: options.onListen ?? (() => {}),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.hostname === undefined ? {} : { hostname: options.hostname }),
  };
  return Deno.serve(serveOptions, handlerFor(service, options));
}

/** runJobs every minute through Deno.cron (on Deno Deploy a managed schedule). */
export function cronJobs(service: Service): void {
  Deno.cron('catalogue runJobs', '* * * * *', () => service.runJobs(new Date()));
}
