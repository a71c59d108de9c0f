/**
 * Requests that reach the hosts together: every socket is opened (and connected) before the
 * spike, one keep-alive node:http Agent per host holding them, so firing N requests is N writes
 * on N connected sockets in one turn, not N connects spread over the handshakes.
 */
import { Agent, request } from 'node:http';

export interface SpikeRequest {
  base: string;
  method: 'GET' | 'POST';
  path: string;
  key: string;
  body?: string;
}

export interface SpikeAnswer {
  base: string;
  status: number;
  /** The error body's `error` and `reason` (null on a success). */
  error: string | null;
  reason: string | null;
  requestId: string;
}

export interface SpikeClient {
  /** Connects `sockets` keep-alive sockets to `base` (GET /healthz on each, counted nowhere). */
  open(base: string, sockets: number): Promise<void>;
  /** Every request at once (Promise.all), each on an open socket of its host. */
  fire(requests: readonly SpikeRequest[]): Promise<SpikeAnswer[]>;
  close(): void;
}

export function spikeClient(): SpikeClient {
  const agents = new Map<string, Agent>();
  const agentFor = (base: string): Agent => {
    let agent = agents.get(base);
    if (!agent) {
      agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, maxFreeSockets: 10_000, scheduling: 'fifo' });
      agents.set(base, agent);
    }
    return agent;
  };

  function send(req: SpikeRequest): Promise<SpikeAnswer> {
    const body = req.body === undefined ? null : Buffer.from(req.body);
    return new Promise((resolve, reject) => {
      const outgoing = request(`${req.base}${req.path}`, {
        method: req.method,
        agent: agentFor(req.base),
        headers: { 'x-api-key': req.key, ...(body ? { 'content-type': 'application/json', 'content-length': String(body.byteLength) } : {}) },
      });
      outgoing.on('response', (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let error: string | null = null;
          let reason: string | null = null;
          if ((incoming.statusCode ?? 0) >= 400) {
            try {
              const parsed = JSON.parse(text) as { error?: string; reason?: string };
              error = parsed.error ?? null;
              reason = parsed.reason ?? null;
            } catch {
              error = 'not-json';
            }
          }
          resolve({ base: req.base, status: incoming.statusCode ?? 0, error, reason, requestId: String(incoming.headers['x-request-id']) });
        });
        incoming.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(body ?? undefined);
    });
  }

  return {
    async open(base, sockets) {
      const agent = agentFor(base);
      await Promise.all(
        Array.from(
          { length: sockets },
          () =>
            new Promise<void>((resolve, reject) => {
              const probe = request(`${base}/healthz`, { agent }, (incoming) => {
                incoming.resume();
                incoming.on('end', () => resolve());
              });
              probe.on('error', reject);
              probe.end();
            }),
        ),
      );
    },
    fire: (requests) => Promise.all(requests.map(send)),
    close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

/** Answers counted by `status` or `status reason` (`200`, `429 quota`): one object to compare exactly. */
export function tally(answers: ReadonlyArray<{ status: number; error?: string | null; reason?: string | null }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const answer of answers) {
    const label = answer.status === 429 ? `429 ${answer.reason}` : answer.status >= 400 ? `${answer.status} ${answer.error}` : String(answer.status);
    out[label] = (out[label] ?? 0) + 1;
  }
  return out;
}

/** Request i to host i mod hosts.length: round robin over the fleet. */
export function roundRobin(bases: readonly string[], n: number, make: (i: number) => Omit<SpikeRequest, 'base'>): SpikeRequest[] {
  return Array.from({ length: n }, (_, i) => ({ base: bases[i % bases.length] as string, ...make(i) }));
}
