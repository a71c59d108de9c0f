/**
 * The load generator: N clients, each with its own keep-alive connection, send requests back to
 * back until the route's count or time budget is spent; latency is send → last body byte.
 * Any answer other than the expected status aborts the run: a fast error is not a measurement.
 */
import { Agent, request } from 'node:http';

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

/**
 * One request; resolves at its last body byte. The body is kept and decoded only when the
 * status is not the expected one (the error message quotes it): a 500-record batch answer is
 * ~1 MB, and concatenating and decoding it on every success cost the load generator as much CPU
 * as the server spent answering, on the same two cores as the server (issue 14).
 */
function send(agent: Agent, base: URL, key: string, req: RouteRequest, expected: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'x-api-key': key };
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(req.body));
    }
    const outgoing = request({ agent, host: base.hostname, port: base.port, method: req.method, path: req.path, headers }, (res) => {
      const status = res.statusCode ?? 0;
      res.on('error', reject);
      if (status === expected) {
        // Read to the end (latency stays send → last body byte), keep nothing.
        res.on('end', () => resolve({ status, body: '' }));
        res.resume();
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export async function measureRoute(run: RouteRun, options: MeasureOptions): Promise<Percentiles> {
  const base = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients });
  const latencies: number[] = [];
  let issued = 0;
  const deadline = performance.now() + options.maxMs;
  const total = options.warmup + options.maxRequests;
  async function client(): Promise<void> {
    for (;;) {
      const i = issued++;
      if (i >= total || (i >= options.warmup && performance.now() > deadline)) return;
      const req = run.next(i);
      const startedAt = performance.now();
      const res = await send(agent, base, options.key, req, 200);
      const elapsed = performance.now() - startedAt;
      if (res.status !== 200) throw new Error(`${run.route}: ${req.method} ${req.path} answered ${res.status}: ${res.body.slice(0, 300)}`);
      if (i >= options.warmup) latencies.push(elapsed);
    }
  }
  try {
    await Promise.all(Array.from({ length: options.clients }, () => client()));
  } finally {
    agent.destroy();
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
