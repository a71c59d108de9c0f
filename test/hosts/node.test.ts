import { describe, expect, it } from 'vitest';
import { checkAnswer } from './answer.js';
import { errorHeaders } from './fixture.js';
import { sendRaw } from './raw-http.js';
import { runFixtureAgainst } from './run-process-host.js';

runFixtureAgainst('node', (host) => {
  // Node lets a host answer what its parser refuses (`clientError`): in the contract's shape (docs/decisions.md §9).
  describe('what the HTTP parser refuses is answered in the contract shape', () => {
    it('a malformed request line is 400 bad_request', async () => {
      const answer = await sendRaw(host().baseUrl, 'GARBAGE\r\n\r\n');
      checkAnswer(answer, { status: 400, json: { error: 'bad_request' }, headers: { ...errorHeaders, connection: 'close' } }, 'node: bad request line');
    });

    it('a request line and headers over the limit are 431 headers_too_large', async () => {
      const answer = await sendRaw(host().baseUrl, `GET /api/v1 HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
      checkAnswer(answer, { status: 431, json: { error: 'headers_too_large' }, headers: errorHeaders }, 'node: header overflow');
    });

    it('an HTTP/1.1 request without Host is 400 bad_request (RFC 9112 §3.2)', async () => {
      const answer = await sendRaw(host().baseUrl, 'GET /api/v1 HTTP/1.1\r\nConnection: close\r\n\r\n');
      checkAnswer(answer, { status: 400, json: { error: 'bad_request' }, headers: errorHeaders }, 'node: no Host');
    });

    it('an HTTP/1.0 request without Host is served', async () => {
      const answer = await sendRaw(host().baseUrl, 'GET /api/v1 HTTP/1.0\r\n\r\n');
      checkAnswer(answer, { status: 200, json: { version: 'v1' } }, 'node: HTTP/1.0');
    });
  });

  // A body over the cap that the client sends whole (fetch does, before it reads any answer)
  // is read and dropped, then answered: a host that answers and closes mid-upload makes the
  // client's write fail with EPIPE instead (node-fetch#555; the CI run of 2026-11-27).
  describe('a declared body over the 1 MB cap', () => {
    const oversized = JSON.stringify({ pad: 'x'.repeat(1_100_000) });

    it('is answered 413 payload_too_large to every fetch that sends it whole (3 × 100, between GETs on the same connections)', async () => {
      const outcomes: string[] = [];
      const loop = async () => {
        for (let i = 0; i < 100; i++) {
          await (await fetch(`${host().baseUrl}/api/v1`)).text();
          try {
            const answer = await fetch(`${host().baseUrl}/api/v1/masters/batch`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: oversized,
            });
            const body = (await answer.json()) as { error?: string };
            outcomes.push(`${answer.status} ${body.error}`);
          } catch (error) {
            outcomes.push(`fetch failed: ${(error as { cause?: { code?: string } }).cause?.code ?? String(error)}`);
          }
        }
      };
      await Promise.all([loop(), loop(), loop()]);
      expect(outcomes.filter((outcome) => outcome !== '413 payload_too_large')).toEqual([]);
      expect(outcomes).toHaveLength(300);
    });

    it('declared far past what the host reads and drops (64 MB) is answered at once, without the body', async () => {
      const answer = await sendRaw(
        host().baseUrl,
        `POST /api/v1/masters/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024 + 1}\r\n\r\n{"ids":[`,
      );
      checkAnswer(answer, { status: 413, json: { error: 'payload_too_large' }, headers: { ...errorHeaders, connection: 'close' } }, 'node: 64 MB declared');
    });

    it('that stops arriving is answered 413 once the host stops waiting for it', async () => {
      const started = Date.now();
      const answer = await sendRaw(
        host().baseUrl,
        `POST /api/v1/masters/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1100000\r\n\r\n{"ids":[`,
      );
      checkAnswer(answer, { status: 413, json: { error: 'payload_too_large' }, headers: { ...errorHeaders, connection: 'close' } }, 'node: stalled body');
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});
