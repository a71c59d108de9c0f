/**
 * The Bun host listens with reusePort (hosts/bun/src/serve.ts): several Bun processes on one
 * PORT share it, the kernel spreading connections over them (docs/hosts.md, "Bun"). Which
 * process answered is read from each one's access log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningHost, send, startHost } from './process-host.js';

describe('two Bun hosts on one port', () => {
  let hosts: RunningHost[] = [];
  let base: string;

  beforeAll(async () => {
    const port = String(await freePort());
    base = `http://127.0.0.1:${port}`;
    hosts = await Promise.all([startHost('bun', { PORT: port, LOG_LEVEL: 'info' }), startHost('bun', { PORT: port, LOG_LEVEL: 'info' })]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
  });

  it('both answer, each connection served by one of them', async () => {
    const ids: string[] = [];
    // A connection each: the kernel picks the process per connection (SO_REUSEPORT hashes the 4-tuple).
    for (let i = 0; i < 24; i++) {
      const answer = await send(base, { method: 'GET', path: '/healthz' });
      expect(answer.status).toBe(200);
      ids.push(answer.headers['x-request-id'] as string);
    }
    const served = () => hosts.map((host) => ids.filter((id) => host.output().includes(id)).length);
    const total = () => served().reduce((sum, count) => sum + count, 0);
    // The last access lines may still be in the pipes.
    for (let tries = 0; tries < 100 && total() < ids.length; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    const [first = 0, second = 0] = served();
    expect(first + second).toBe(ids.length);
    // Each of 24 connections lands on either process: all on one would be a 1 in 8 million chance.
    expect(first > 0 && second > 0).toBe(true);
  });
});
