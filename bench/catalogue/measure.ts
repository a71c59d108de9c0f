/**
 * The load generator: N clients, each with its own keep-alive connection, send requests back to
 * back until the route's count or time budget is spent; latency is send → last body byte.
 * Any answer other than the expected status aborts the run: a fast error is not a measurement.
 *
 * Each client is a TCP socket that writes its request's bytes and reads the answer through
 * http-parser-js (the parser autocannon uses), keeping no body unless the status is unexpected.
 * It shares the machine's 2 cores with the server: node:http's client spent about 80 µs of CPU
 * on a master read and 1.5–2.4 ms on a 1 MB batch answer, as much as the server spent answering
 * it; this one spends about 30 µs and about 220 (issue 14, 2026-11-26).
 */
import { connect, type Socket } from 'node:net';
import { HTTPParser } from 'http-parser-js';

export interface RouteRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface RouteRun {
  route: string;
  /** Request i of the run (deterministic: clients share one counter). */
  next(i: number): RouteRequest;
}

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface MeasureOptions {
  baseUrl: string;
  key: string;
  clients: number;
  /** Stop after this many requests… */
  maxRequests: number;
  /** …or after this many milliseconds, whichever comes first. */
  maxMs: number;
  /** Requests sent first and not counted (connections, caches, JIT). */
  warmup: number;
}

/** Each connection's read buffer: a 1 MB batch answer arrives in a few reads. */
const READ_BUFFER_BYTES = 256 * 1024;

/** One keep-alive connection and the answer it is reading. */
class Connection {
  readonly #parser = new HTTPParser(HTTPParser.RESPONSE);
  #status = 0;
  #expected = 200;
  /** The body, kept only when the status is not the expected one (the error quotes it). */
  #chunks: Buffer[] | null = null;
  #settle: { resolve(answer: { status: number; body: string }): void; reject(error: Error): void } | null = null;

  private constructor(private readonly socket: Socket) {
    this.#parser[HTTPParser.kOnHeadersComplete] = (info) => {
      this.#status = info.statusCode;
      this.#chunks = info.statusCode === this.#expected ? null : [];
    };
    this.#parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
      this.#chunks?.push(Buffer.from(chunk.subarray(offset, offset + length)));
    };
    this.#parser[HTTPParser.kOnMessageComplete] = () => {
      const settle = this.#settle;
      this.#settle = null;
      settle?.resolve({ status: this.#status, body: this.#chunks ? Buffer.concat(this.#chunks).toString('utf8') : '' });
    };
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new Error('the server closed the connection')));
  }

  /** Bytes the socket read into its one buffer (see open). */
  #read(bytes: Buffer): void {
    const parsed = this.#parser.execute(bytes);
    if (parsed instanceof Error) this.#fail(parsed);
  }

  /**
   * The socket reads into one buffer of its own (net's `onread`) rather than a new Buffer per
   * read and a 'data' event: a 1 MB batch answer was 16 allocations of 64 KB per request. The
   * parser copies a body only when it keeps one (kOnBody), so reusing the buffer is safe.
   */
  static open(base: URL): Promise<Connection> {
    return new Promise((resolve, reject) => {
      let connection: Connection | null = null;
      const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
      const socket = connect(
        {
          port: Number(base.port),
          host: base.hostname,
          onread: {
            buffer,
            callback: (size) => {
              if (connection) connection.#read(buffer.subarray(0, size));
              return true;
            },
          },
        },
        () => {
          socket.off('error', reject);
          socket.setNoDelay(true);
          connection = new Connection(socket);
          resolve(connection);
        },
      );
      socket.once('error', reject);
    });
  }

  /** Writes one request; resolves at its answer's last body byte. */
  send(head: string, body: string | undefined, expected: number): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      this.#expected = expected;
      this.#settle = { resolve, reject };
      this.socket.write(body === undefined ? head : head + body);
    });
  }

  close(): void {
    this.#settle = null;
    this.socket.destroy();
  }

  #fail(error: Error): void {
    const settle = this.#settle;
    this.#settle = null;
    settle?.reject(error);
  }
}

/** The request's bytes before its body: the request line and headers of an HTTP/1.1 keep-alive request. */
function requestHead(base: URL, key: string, req: RouteRequest): string {
  const length = req.body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(req.body)}\r\n`;
  return `${req.method} ${req.path} HTTP/1.1\r\nhost: ${base.host}\r\nx-api-key: ${key}\r\n${length}\r\n`;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export async function measureRoute(run: RouteRun, options: MeasureOptions): Promise<Percentiles> {
  const base = new URL(options.baseUrl);
  const connections = await Promise.all(Array.from({ length: options.clients }, () => Connection.open(base)));
  const latencies: number[] = [];
  let issued = 0;
  const deadline = performance.now() + options.maxMs;
  const total = options.warmup + options.maxRequests;
  async function client(connection: Connection): Promise<void> {
    for (;;) {
      const i = issued++;
      if (i >= total || (i >= options.warmup && performance.now() > deadline)) return;
      const req = run.next(i);
      const head = requestHead(base, options.key, req);
      const startedAt = performance.now();
      const res = await connection.send(head, req.body, 200);
      const elapsed = performance.now() - startedAt;
      if (res.status !== 200) throw new Error(`${run.route}: ${req.method} ${req.path} answered ${res.status}: ${res.body.slice(0, 300)}`);
      if (i >= options.warmup) latencies.push(elapsed);
    }
  }
  try {
    await Promise.all(connections.map((connection) => client(connection)));
  } finally {
    for (const connection of connections) connection.close();
  }
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
  };
}
