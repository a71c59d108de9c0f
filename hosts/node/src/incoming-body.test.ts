/** The Node host's request.body for a declared Content-Length (incoming-body.ts): read from the IncomingMessage, no full Request. */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeServiceHost, serveFakeService } from '../../../test/support/fake-service-host.js';
import { openSocket } from '../../../test/support/raw-socket.js';

/** Whether the bridge built its full undici Request for `request` (its cache sits behind a symbol named requestCache). */
function builtFullRequest(request: Request): boolean {
  const cache = Object.getOwnPropertySymbols(request).find((symbol) => symbol.description === 'requestCache');
  return cache !== undefined && (request as unknown as Record<symbol, unknown>)[cache] !== undefined;
}

/** Reads a stream as core's readBodyCapped does, cancelling once more than `cap` bytes arrived. */
async function readCapped(body: ReadableStream<Uint8Array>, cap: number): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel();
      return `over ${cap}`;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

describe('the Node host request.body', () => {
  let host: FakeServiceHost;

  beforeAll(async () => {
    host = await serveFakeService(async (request, seen) => {
      const path = new URL(request.url).pathname;
      if (path === '/stream') {
        const text = await readCapped(request.body as ReadableStream<Uint8Array>, 1024);
        return Response.json({ text, full: builtFullRequest(request) });
      }
      if (path === '/json') {
        const parsed = await request.json();
        return Response.json({ parsed, full: builtFullRequest(request) });
      }
      if (path === '/gone') {
        const outcome = readCapped(request.body as ReadableStream<Uint8Array>, 1 << 20).then(
          (text) => `read ${text.length}`,
          (error: unknown) => `failed: ${String(error)}`,
        );
        seen.set(path, outcome);
        await outcome;
        return new Response('late');
      }
      return new Response('?', { status: 404 });
    });
  });
  afterAll(() => host.running.close());

  const open = () => openSocket(host.running.url);

  it('reads a declared body sent in pieces, without the full Request', async () => {
    const socket = await open();
    const body = JSON.stringify({ ids: [1, 2, 3], note: 'é' });
    const bytes = Buffer.from(body);
    socket.write(`POST /stream HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${bytes.byteLength}\r\nConnection: close\r\n\r\n`);
    socket.write(bytes.subarray(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.write(bytes.subarray(5));
    const answer = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    expect(answer.startsWith('HTTP/1.1 200')).toBe(true);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ text: body, full: false });
  });

  it('answers json() from the same stream', async () => {
    const answer = await fetch(`${host.running.url}/json`, { method: 'POST', body: '{"ids":[7]}', headers: { 'content-type': 'application/json' } });
    expect(await answer.json()).toEqual({ parsed: { ids: [7] }, full: false });
  });

  it('stops at a reader cancel past its cap, and the connection serves the next request', async () => {
    const big = 'x'.repeat(200_000);
    const first = await fetch(`${host.running.url}/stream`, { method: 'POST', body: big });
    expect(await first.json()).toEqual({ text: 'over 1024', full: false });
    const second = await fetch(`${host.running.url}/stream`, { method: 'POST', body: 'small' });
    expect(await second.json()).toEqual({ text: 'small', full: false });
  });

  it('errors the read when the client goes away before the end of the body', async () => {
    const socket = await open();
    socket.write('POST /gone HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\npartial');
    const { outcome } = await host.until('/gone');
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    expect(await outcome).toMatch(/^failed: Error: aborted/);
  });
});
