/**
 * postgres.js's connections with Nagle's algorithm off (TCP_NODELAY), as libpq always opens them.
 *
 * postgres.js 3.4.9 connects a plain `net.Socket`, which keeps Nagle on. A small write that
 * follows another unacknowledged one then waits for the server's delayed ACK: COPY's closing
 * CopyDone after its data, or a query pipelined behind one in flight. Measured on finish()'s
 * documents pass (1 M records of the 2020-08 mix, 2026-11-28): each of the derived workers' COPYs
 * took 28 ms, almost all of it waiting, 12.7 s of the step's 13.6 with both cores mostly idle;
 * with TCP_NODELAY 4.8 s, and the step 5.7 s.
 *
 * Given as postgres.js's `socket` option, which replaces its own `new net.Socket()` and connect.
 * Only for one host or a Unix socket: with several hosts postgres.js picks the next host itself
 * per connection, which a factory cannot see, so those pools keep postgres.js's own sockets.
 */
import { connect, type Socket } from 'node:net';

/** The parsed options postgres.js hands its socket factory (the fields read here). */
interface SocketTarget {
  host: readonly string[];
  port: readonly number[];
  path?: string | false;
}

/** A socket to the pool's one host, Nagle off; postgres.js writes its start-up once it connects. */
export function noDelaySocket(target: SocketTarget): Socket {
  if (target.path) return connect(target.path);
  return connect({ host: target.host[0], port: target.port[0] ?? 5432, noDelay: true });
}

/** postgres.js's `socket` option for `url`: the factory above, or nothing for several hosts. */
export function noDelaySocketOption(url: string): { socket?: typeof noDelaySocket } {
  const hosts = hostsOf(url);
  return hosts > 1 ? {} : { socket: noDelaySocket };
}

/** Hosts a connection URL names (`host1:5432,host2:5433` is several). */
function hostsOf(url: string): number {
  const authority = /^[a-z]+:\/\/(?:[^@/]*@)?([^/?#]*)/i.exec(url)?.[1] ?? '';
  return authority.split(',').length;
}
