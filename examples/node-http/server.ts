/**
 * Embedding the catalogue API in an existing node:http server: the app keeps its own routes
 * and hands everything under /catalogue to the service's fetch handler. The bridge is a few
 * lines of node:http ↔ WHATWG Request/Response; no framework needed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Service } from '@catalogue/core';

const PREFIX = '/catalogue';

export function createApp(service: Service): Server {
  return createServer((req, res) => {
    if (req.url === '/' || req.url === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('my existing app\n');
      return;
    }
    if (req.url?.startsWith(`${PREFIX}/`)) {
      forward(service, req, res).catch(() => res.headersSent || res.writeHead(502).end());
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
}

async function forward(service: Service, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL((req.url as string).slice(PREFIX.length), `http://${req.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : null,
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit);
  const response = await service.fetch(request, { clientIp: req.socket.remoteAddress ?? 'unknown' });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
  else res.end();
}

// `npm start -w examples/node-http`: the in-memory demo behind the app on port 3000.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { createServiceFromEnv } = await import('@catalogue/host-kit');
  const { service } = await createServiceFromEnv({ ...process.env, CATALOGUE_STORAGE: 'memory', BASE_URL: 'http://localhost:3000/catalogue' });
  createApp(service).listen(3000, () => console.log('app on http://localhost:3000, catalogue under /catalogue'));
}
