/**
 * @catalogue/client against the Node host as `npm start` runs it (memory demo, on i16b's ports
 * per COORDINATION.md): typed calls to v2, the v1 cutover's Deprecation/Sunset surfaced 30 days
 * before the sunset, and the 308 to v2 followed once it has passed.
 */
import { createV1Client, createV2Client, type DeprecationNotice } from '@catalogue/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHostProcess, spawnNodeHost } from '../support/node-host-process.js';

const DAY = 86_400_000;
const BEFORE_SUNSET = { port: 56172, sunset: new Date(Date.now() + 20 * DAY).toISOString().slice(0, 10) };
const AFTER_SUNSET = { port: 56173, sunset: new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10) };

let before: NodeHostProcess;
let after: NodeHostProcess;

const demoKeyOf = (host: NodeHostProcess) => /demo key:\s+(ck_test_\S+)/.exec(host.output())?.[1] as string;
const noWait = async () => {};

beforeAll(async () => {
  const hosts = await Promise.all(
    [BEFORE_SUNSET, AFTER_SUNSET].map(({ port, sunset }) =>
      spawnNodeHost({ PORT: String(port), CATALOGUE_STORAGE: 'memory', CUTOVER_SUNSET_AT: sunset }, 120_000),
    ),
  );
  before = hosts[0] as NodeHostProcess;
  after = hosts[1] as NodeHostProcess;
}, 150_000);

afterAll(async () => {
  await Promise.all([before?.stop(), after?.stop()]);
});

describe('@catalogue/client against a running Node host', () => {
  it('calls v2 with typed parameters and answers', async () => {
    const api = createV2Client({ baseUrl: `http://localhost:${BEFORE_SUNSET.port}`, apiKey: demoKeyOf(before), sleep: noWait });
    const search = await api.GET('/api/v2/search', { params: { query: { q: 'house', limit: 3 } } });
    expect(search.response.status).toBe(200);
    expect(search.data?.hits.length).toBeGreaterThan(0);
    expect(search.data?.hits.length).toBeLessThanOrEqual(3);
    const hit = search.data?.hits.find((h) => h.type === 'artist') ?? search.data?.hits[0];
    expect(typeof hit?.name).toBe('string');
    const invalid = await api.GET('/api/v2/search', { params: { query: { limit: 101 } } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.error).toBe('invalid_query');
  });

  it('surfaces Deprecation and Sunset on v1 answers within 30 days of the sunset', async () => {
    const notices: DeprecationNotice[] = [];
    const api = createV1Client({ baseUrl: `http://localhost:${BEFORE_SUNSET.port}`, apiKey: demoKeyOf(before), onDeprecation: (n) => notices.push(n) });
    const { response } = await api.GET('/api/v1/search', { params: { query: { q: 'house', limit: 2 } } });
    expect(response.status).toBe(200);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.sunset?.toISOString().slice(0, 10)).toBe(BEFORE_SUNSET.sunset);
    expect(notices[0]?.successor).toMatch(/\/api\/v2\/search\?q=house&limit=2$/);
  });

  it('follows the 308 from v1 to v2 after the sunset, reporting it', async () => {
    const notices: DeprecationNotice[] = [];
    const api = createV1Client({ baseUrl: `http://localhost:${AFTER_SUNSET.port}`, apiKey: demoKeyOf(after), onDeprecation: (n) => notices.push(n) });
    const { data, response } = await api.GET('/api/v1/search', { params: { query: { q: 'house', limit: 2 } } });
    expect(response.status).toBe(200);
    expect(response.url).toMatch(/\/api\/v2\/search\?q=house&limit=2$/);
    expect(data?.hits.length).toBeGreaterThan(0);
    expect(notices.map((n) => n.status)).toContain(308);
  });
});
