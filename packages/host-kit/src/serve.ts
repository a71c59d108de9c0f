/**
 * The one shape of every host (srvx's adapters are the model): `serve(service, options)`
 * starts the runtime's server around the service's fetch handler and answers where it listens
 * and how to close it. Node, Bun and Deno implement it in `hosts/<runtime>/src/serve.ts`;
 * Lambda has no server, its `serve` gives the event handler and the same `close`.
 */

import type { TrustProxy } from './client-ip.js';

/** What a host's serve() takes, read from the configuration table (HostEnv). */
export interface ServeOptions {
  /** Omitted where the platform picks it (Deno Deploy); 0 for any free port. */
  port?: number;
  hostname?: string;
  /** TRUST_PROXY: which X-Forwarded-For hops are our proxies (client-ip.ts); `true` is one proxy in front. */
  trustProxy: TrustProxy;
  /** BASE_URL's origin when it is set (HostEnv.publicOrigin): the origin of every request URL. */
  publicOrigin?: string | null;
  /** Host-level request body cap in bytes (default HOST_MAX_BODY_BYTES, 1 MB). */
  maxBodyBytes?: number;
  /** How long close() lets in-flight requests and their background work finish (default 15 s). */
  graceMs?: number;
}

/** What serve() gives back. */
export interface ServedHost {
  /** Where this process listens, e.g. `http://localhost:8080` (not BASE_URL). */
  url: string;
  /** Stop accepting, let in-flight requests and their background work finish (up to the grace period), then close. */
  close(): Promise<void>;
}

export const HOST_GRACE_MS = 15_000;
