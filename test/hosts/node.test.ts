import { describe, it } from 'vitest';
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
});
