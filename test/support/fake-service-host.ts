/**
 * The Node host serving a stand-in Service (only `fetch`), for host tests that watch what the
 * host hands a handler: each handler records an outcome by path in `seen`, and `until(path)`
 * waits for that handler to have run.
 */
import type { Service } from '@catalogue/core';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';

export interface FakeServiceHost {
  running: RunningServer;
  /** What each request's handler saw, by path. */
  seen: Map<string, Promise<string>>;
  /** Once the handler of `path` ran: what it saw, wrapped (an async function would wait for the promise itself). */
  until(path: string): Promise<{ outcome: Promise<string> }>;
}

export async function serveFakeService(fetch: (request: Request, seen: Map<string, Promise<string>>) => Promise<Response>): Promise<FakeServiceHost> {
  const seen = new Map<string, Promise<string>>();
  const service = { fetch: (request: Request) => fetch(request, seen) } as unknown as Service;
  const running = await listen(createNodeServer(service, { trustProxy: false }), 0, '127.0.0.1', 1_000);
  return {
    running,
    seen,
    async until(path) {
      while (!seen.has(path)) await new Promise((resolve) => setTimeout(resolve, 5));
      return { outcome: seen.get(path) as Promise<string> };
    },
  };
}
