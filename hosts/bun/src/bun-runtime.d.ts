/**
 * The slice of Bun's runtime API this host uses, declared here so the workspace type-checks
 * with Node's tsc without pulling in all of bun-types.
 */
declare namespace Bun {
  interface SocketAddress {
    address: string;
    port: number;
  }
  interface Server {
    readonly port: number;
    readonly hostname: string;
    readonly pendingRequests: number;
    requestIP(request: Request): SocketAddress | null;
    stop(closeActiveConnections?: boolean): Promise<void>;
  }
  interface ServeOptions {
    port?: number;
    hostname?: string;
    maxRequestBodySize?: number;
    reusePort?: boolean;
    idleTimeout?: number;
    development?: boolean;
    fetch(request: Request, server: Server): Response | Promise<Response>;
    error?(error: Error): Response | Promise<Response>;
  }
  function serve(options: ServeOptions): Server;
  const version: string;
}
