/** The Node host's request.signal (client-signal.ts): aborted when the client goes away, as the bridge's was. */

import { CLIENT_GONE } from '@catalogue/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServiceHost, serveFakeService } from '../../../test/support/fake-service-host.js';
import { openSocket } from '../../../test/support/raw-socket.js';

describe('the Node host request.signal', () => {
  let host: FakeServiceHost;

  beforeAll(async () => {
    host = await serveFakeService(async (request, seen) => {
      const path = new URL(request.url).pathname;
      if (path === '/wait') {
        // Reads the signal at once and waits for the client to go away.
        const signal = request.signal;
        seen.set(path, new Promise((resolve) => signal.addEventListener('abort', () => resolve(`aborted: ${signal.reason}`))));
        return new Promise<Response>(() => {});
      }
      if (path === '/late') {
        // Reads the signal only once the client is gone.
        await new Promise((resolve) => setTimeout(resolve, 150));
        const signal = request.signal;
        seen.set(path, Promise.resolve(signal.aborted ? `aborted: ${signal.reason}` : 'not aborted'));
        return new Response('late');
      }
      if (path === '/probe-late' || path === '/probe-done') {
        // Core's CLIENT_GONE probe, asked once the client left (or once the answer is out).
        const probed = request as unknown as { [CLIENT_GONE]: () => boolean };
        const probe = () => probed[CLIENT_GONE]();
        if (path === '/probe-late') {
          await new Promise((resolve) => setTimeout(resolve, 150));
          seen.set(path, Promise.resolve(probe() ? 'gone' : 'here'));
          return new Response('late');
        }
        seen.set(path, new Promise((resolve) => setTimeout(() => resolve(probe() ? 'gone' : 'here'), 100)));
        return new Response('done');
      }
      if (path === '/done') {
        const signal = request.signal;
        const body = request.method === 'POST' ? await request.text() : '';
        seen.set(path, new Promise((resolve) => setTimeout(() => resolve(signal.aborted ? 'aborted' : 'not aborted'), 100)));
        return new Response(`done ${body}`);
      }
      return new Response('?', { status: 404 });
    });
  });
  afterAll(() => host.running.close());

  const open = () => openSocket(host.running.url);
  const until = (path: string) => host.until(path);

  it('aborts when the client closes the connection before the answer', async () => {
    const socket = await open();
    socket.write('GET /wait HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const { outcome } = await until('/wait');
    socket.destroy();
    // The bridge's reasons: the request stream's error when it has one (the client's socket
    // closed under it), otherwise that the connection closed before the answer was out.
    expect(await outcome).toMatch(/^aborted: (Error: aborted|Client connection prematurely closed\.)$/);
  });

  it('is aborted already when first read after the client left', async () => {
    const socket = await open();
    socket.write('GET /late HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.destroy();
    expect(await (await until('/late')).outcome).toMatch(/^aborted: (Error: aborted|Client connection prematurely closed\.)$/);
  });

  it('stays quiet for a request answered in full, and a body can still be read', async () => {
    const answer = await fetch(`${host.running.url}/done`, { method: 'POST', body: 'payload' });
    expect(await answer.text()).toBe('done payload');
    expect(await (await until('/done')).outcome).toBe('not aborted');
  });

  it('the CLIENT_GONE probe says gone once the client left, without a signal', async () => {
    const socket = await open();
    socket.write('GET /probe-late HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.destroy();
    expect(await (await until('/probe-late')).outcome).toBe('gone');
  });

  it('the CLIENT_GONE probe says here for a request answered in full, after the connection closed too', async () => {
    const answer = await fetch(`${host.running.url}/probe-done`, { headers: { connection: 'close' } });
    expect(await answer.text()).toBe('done');
    expect(await (await until('/probe-done')).outcome).toBe('here');
  });
});
