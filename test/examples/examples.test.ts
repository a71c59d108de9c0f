/**
 * Every example runs: the node:http and Hono embeddings answer through their /catalogue
 * mount, the in-memory testing example's own vitest suite passes, and each minimal deploy entry
 * starts and answers (Node, Bun, Deno as processes; Lambda through its handler).
 */
import { execFile, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Service } from '@catalogue/core';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp as createHonoApp } from '../../examples/hono-app/server.js';
import { createApp as createNodeApp } from '../../examples/node-http/server.js';
import { freePort } from '../hosts/process-host.js';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules/.bin');
const ADMIN = 'examples-admin-token-0123456789abcdef';

async function issueKey(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'example@example.com', tier: 'self_serve_49', environment: 'test' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

describe('embedding examples', () => {
  let service: Service;
  beforeAll(async () => {
    ({ service } = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'error' }));
  }, 60_000);

  it('node:http: the app keeps its routes and serves the API under /catalogue', async () => {
    const server = createNodeApp(service).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${origin}/`)).text()).toContain('my existing app');
      const key = await issueKey(`${origin}/catalogue`);
      const res = await fetch(`${origin}/catalogue/api/v1/masters/999999999`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'master_not_found' });
      expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    } finally {
      server.close();
    }
  });

  it('Hono: app.mount hands /catalogue/* to the service', async () => {
    const app = createHonoApp(service);
    expect(await (await app.request('/')).text()).toBe('my existing app');
    const issued = await app.request('/catalogue/api/v1/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'hono@example.com', tier: 'self_serve_49', environment: 'test' }),
    });
    expect(issued.status).toBe(201);
    const { key } = (await issued.json()) as { key: string };
    const res = await app.request('/catalogue/api/v1/search?q=house&limit=1', { headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    expect((await app.request('/catalogue/api/v1/search?q=house')).status).toBe(401);
  });
});

describe('the in-memory testing example', () => {
  it('passes its own vitest suite', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(BIN, '../vitest/vitest.mjs'), 'run', '--root', 'examples/testing'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(stdout).toMatch(/Tests\s+3 passed/);
  }, 120_000);
});

describe('minimal deploy entries', () => {
  const entries: Array<[string, string, string[]]> = [
    ['node', process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', 'examples/deploy/node.ts']],
    ['bun', join(BIN, 'bun'), ['--conditions=catalogue-source', 'examples/deploy/bun.ts']],
    ['deno', join(BIN, 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', 'examples/deploy/deno.ts']],
  ];
  for (const [runtime, command, args] of entries) {
    it(`${runtime} starts and answers`, async () => {
      const port = await freePort();
      const env: Record<string, string | undefined> = {
        ...process.env,
        PORT: String(port),
        CATALOGUE_STORAGE: 'memory',
        ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: 'warn',
      };
      delete env.BASE_URL;
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout?.on('data', (d) => (out += d));
      child.stderr?.on('data', (d) => (out += d));
      try {
        for (let polls = 0; !out.includes('listening on'); polls++) {
          if (child.exitCode !== null || polls > 900) throw new Error(`${runtime} entry did not start: ${out}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const key = await issueKey(`http://127.0.0.1:${port}`);
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/search?q=house&limit=1`, { headers: { 'x-api-key': key } });
        expect(res.status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
      }
    }, 120_000);
  }

  it('lambda exports the handler', async () => {
    process.env.CATALOGUE_STORAGE = 'memory';
    // Vitest sets BASE_URL=/ in its own environment, which the handler reads: not a public origin.
    delete process.env.BASE_URL;
    const { handler } = await import('../../examples/deploy/lambda.js');
    const result = await handler({
      version: '0',
      id: 'x',
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '1',
      time: '2026-01-01T00:00:00Z',
      region: 'us-east-1',
      resources: [],
      detail: {},
    });
    expect(result).toEqual({ ok: true, ran: 'runJobs' });
  }, 60_000);
});
