/**
 * Node's `clientError`: what its HTTP parser refuses before there is a request — a malformed
 * request line or header, a request line and headers over `--max-http-header-size`, a request
 * that never finished arriving — is answered in the contract's shape (JSON error body,
 * `X-Request-Id`, `Cache-Control: no-store`; docs/decisions.md §9) instead of Node's bare status line.
 * The statuses are those of Node's own default (lib/_http_server.js, socketOnError).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '@catalogue/core';
import { hostRefusal } from '@catalogue/host-kit';

/** How long a refused connection may stay open for the client to read the answer and close. */
const CLOSE_GRACE_MS = 1_000;

export function parserRefusal(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', { message: 'chunk extensions over the server’s limit' });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout');
    default:
      return new ApiError('bad_request');
  }
}

/** The answer as bytes on the wire: there is no ServerResponse for a request that never parsed. */
async function wireFormOf(response: Response): Promise<Buffer> {
  const body = Buffer.from(await response.arrayBuffer());
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  response.headers.forEach((value, name) => {
    lines.push(`${name}: ${value}`);
  });
  lines.push(`content-length: ${body.byteLength}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

/** The parser keeps failing on every later chunk of a refused connection: answer it once. */
const answered = new WeakSet<Duplex>();

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  // As Node's default: nothing to answer on a reset or closed socket, and never write into a
  // response whose head is already on the wire (the client would read a corrupted answer).
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  void wireFormOf(hostRefusal(parserRefusal(error.code))).then((bytes) => {
    if (!socket.writable) return void socket.destroy();
    // End rather than destroy: the rest of what the client sends is still read (and dropped),
    // so closing does not reset the connection before the client has read the answer.
    socket.end(bytes);
    setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
  });
}
