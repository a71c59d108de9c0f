/**
 * What a newcomer meets first (issue 30 item 13), on the real Node host: the start banner shows
 * BASE_URL (not the bound `localhost`) in its URL, curl lines and dashboard link; and `GET /`
 * sends a browser to the reference and any other client to the JSON root index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHostProcess, spawnNodeHost } from '../support/node-host-process.js';
import { freePort } from './process-host.js';

let host: NodeHostProcess;
let base: string;
let dataDir: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'catalogue-banner-'));
  host = await spawnNodeHost({ PORT: String(port), BASE_URL: base, CATALOGUE_STORAGE: 'memory', CATALOGUE_DATA_DIR: dataDir });
}, 90_000);

afterAll(async () => {
  expect(await host?.stop()).toBe(0);
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('the start banner and GET /', () => {
  it('prints BASE_URL where it says where the service is', () => {
    const out = host.output();
    expect(out).toContain(`is listening on ${base}\n`);
    expect(out).toContain(`curl -s '${base}/api/v1/search?q=house&limit=3'`);
    expect(out).toContain(`dashboard:    ${base}/dashboard`);
    expect(out).not.toContain('localhost:');
  });

  it('GET / sends a browser to /docs and other clients to the root index', async () => {
    const browser = await fetch(`${base}/`, { redirect: 'manual', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/docs');
    const followed = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('swagger-ui');
    const client = await fetch(`${base}/`, { redirect: 'manual' });
    expect(client.status).toBe(302);
    expect(client.headers.get('location')).toBe('/api/v1');
    expect(await (await fetch(`${base}/`)).json()).toMatchObject({ name: 'Music Catalogue Data Service', version: 'v1' });
  });
});
