/**
 * Deno.serve around the core fetch handler, shared by the CLI entry (main.ts) and the Deno
 * Deploy entry (deploy.ts): client IP from the connection (or X-Forwarded-For with
 * TRUST_PROXY), the host-level body cap, Deno.cron for the jobs.
 */
import type { Service } from '@catalogue/core';
import { capRequestBody, clientIpFrom, HOST_MAX_BODY_BYTES } from '@catalogue/host-kit';

export interface DenoServerOptions {
  /** Omitted on Deno Deploy, which picks the port itself. */
  port?: number;
  hostname?: string;
  trustProxy: boolean;
  maxBodyBytes?: number;
  onListen?(address: { hostname: string; port: number }): void;
}

export function handlerFor(service: Service, options: Pick<DenoServerOptions, 'trustProxy' | 'maxBodyBytes'>): Deno.ServeHandler<Deno.NetAddr> {
  const maxBody = options.maxBodyBytes ?? HOST_MAX_BODY_BYTES;
  return (request, info) => {
    const clientIp = clientIpFrom(request.headers.get('x-forwarded-for'), options.trustProxy, info.remoteAddr.hostname);
    const capped = request.body === null ? request : capRequestBody(request, maxBody);
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
