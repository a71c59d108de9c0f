/**
 * @catalogue/client against a local server that answers 429 and 503 (issue 16 item 7): the
 * retries follow the specification's guidance, walked on an injected clock — the client's
 * sleep records each wait instead of waiting, and the jitter is pinned.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createV1Client } from '@catalogue/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Scripted {
  status: number;
  headers?: Record<string, string>;
}

let server: Server;
let base: string;
let script: Scripted[] = [];
const seen: Array<{ method: string; url: string; key: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method as string, url: req.url as string, key: req.headers['x-api-key'] as string | undefined });
    const next = script.shift() ?? { status: 200 };
    const body = next.status === 200 ? { customer_id: 'cust_1', calls: 1 } : { error: next.status === 429 ? 'rate_limited' : 'pool_exhausted' };
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A client whose waits are recorded, never slept, with the jitter at its top (random = 1). */
function client(random = () => 0.999999) {
  const waits: number[] = [];
  const api = createV1Client({ baseUrl: base, apiKey: 'ck_test_x', sleep: async (ms) => void waits.push(ms), random, onDeprecation: () => {} });
  return { api, waits };
}

describe('the client backs off as the specification says', () => {
  it('waits Retry-After first, then doubles from 1 s on further 429/503 without it', async () => {
    seen.length = 0;
    script = [{ status: 429, headers: { 'retry-after': '3' } }, { status: 503 }, { status: 503 }, { status: 429 }, { status: 200 }];
    const { api, waits } = client();
    const { data, response } = await api.GET('/api/v1/usage');
    expect(response.status).toBe(200);
    expect(data?.calls).toBe(1);
    // Retry-After 3 s; then the doubling of retries 2, 3 and 4: 2 s, 4 s, 8 s.
    expect(waits).toEqual([3000, 2000, 4000, 8000]);
    expect(seen).toHaveLength(5);
    expect(seen.every((s) => s.key === 'ck_test_x' && s.url === '/api/v1/usage')).toBe(true);
  });

  it('caps the wait at 60 s and gives up after its retry budget, handing back the last answer', async () => {
    script = Array.from({ length: 20 }, () => ({ status: 503 }));
    const { api, waits } = client();
    const { error, response } = await api.GET('/api/v1/usage');
    expect(response.status).toBe(503);
    expect(error).toEqual({ error: 'pool_exhausted' });
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 32000]);
    script = Array.from({ length: 20 }, () => ({ status: 503 }));
    const capped: number[] = [];
    const longer = createV1Client({ baseUrl: base, maxRetries: 8, sleep: async (ms) => void capped.push(ms), random: () => 0.999999, onDeprecation: () => {} });
    await longer.GET('/api/v1/usage');
    expect(capped.slice(-2)).toEqual([60000, 60000]);
  });

  it('spreads the waits with jitter: between half the step and the step', async () => {
    script = [{ status: 503 }, { status: 503 }, { status: 200 }];
    const { api, waits } = client(() => 0);
    await api.GET('/api/v1/usage');
    expect(waits).toEqual([500, 1000]);
  });

  it('retries a 500 once after 5 s, and never a 4xx', async () => {
    script = [{ status: 500 }, { status: 500 }];
    const first = client();
    expect((await first.api.GET('/api/v1/usage')).response.status).toBe(500);
    expect(first.waits).toEqual([5000]);
    seen.length = 0;
    script = [{ status: 404 }];
    const second = client();
    expect((await second.api.GET('/api/v1/usage')).response.status).toBe(404);
    expect(second.waits).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('does not sleep through a spent monthly quota: a Retry-After past 60 s is handed back', async () => {
    script = [{ status: 429, headers: { 'retry-after': '86400' } }];
    const { api, waits } = client();
    expect((await api.GET('/api/v1/usage')).response.status).toBe(429);
    expect(waits).toEqual([]);
  });
});
