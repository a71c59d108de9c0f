/**
 * Bytes written straight to a host's socket and the answer read back until the server closes:
 * for what no HTTP client sends (a malformed request line, headers over the parser's limit, an
 * HTTP/1.1 request without Host).
 */
import { connect } from 'node:net';
import type { Answer } from './answer.js';

export function sendRaw(baseUrl: string, bytes: string): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(raw.toString('latin1'))}`));
      const [statusLine = '', ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: new Uint8Array(raw.subarray(split + 4)) });
    });
  });
}
