/**
 * A TCP proxy between a Redis client and Redis that counts round trips at the socket: a round
 * trip starts when the client writes while no answer is awaited and ends at the answer. Exact
 * for a client that waits for each answer (the bench sends one request at a time).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface CountingProxy {
  port: number;
  roundTrips(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(upstreamHost: string, upstreamPort: number): Promise<CountingProxy> {
  let roundTrips = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: upstreamHost, port: upstreamPort });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    let awaiting = false;
    client.on('data', (chunk) => {
      if (!awaiting) roundTrips++;
      awaiting = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      awaiting = false;
      client.write(chunk);
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', closeBoth).on('error', closeBoth);
    upstream.on('close', closeBoth).on('error', closeBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    roundTrips: () => roundTrips,
    reset: () => {
      roundTrips = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
