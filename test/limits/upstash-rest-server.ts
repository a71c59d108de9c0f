/**
 * A local server speaking the Upstash Redis REST protocol in front of a Redis, for tests:
 * `POST /` with a JSON command array, `POST /pipeline` and `POST /multi-exec` with an array of
 * them, bearer token auth, and the `Upstash-Encoding: base64` response encoding (every string
 * in a result base64-encoded, as @upstash/redis decodes it).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis as IORedis } from 'ioredis';

export interface UpstashRestServer {
  url: string;
  token: string;
  /** Requests served, by path. */
  requests: Map<string, number>;
  close(): Promise<void>;
}

type Reply = { result: unknown } | { error: string };

const encode = (value: unknown): unknown => {
  if (typeof value === 'string') return Buffer.from(value, 'utf8').toString('base64');
  if (Array.isArray(value)) return value.map(encode);
  return value;
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const isCommand = (c: unknown): c is unknown[] => Array.isArray(c) && c.length > 0;
// Upper-cased command name: ioredis transforms some replies (HGETALL) keyed by the lower-case name.
const args = (command: unknown[]) => command.map((a, i) => (i === 0 ? String(a).toUpperCase() : typeof a === 'string' ? a : JSON.stringify(a)));

export async function startUpstashRestServer(redisUrl: string, token = 'test-token'): Promise<UpstashRestServer> {
  // Fail fast like a real REST endpoint whose database is down: no queueing, no resend.
  const redis = new IORedis(redisUrl, { enableOfflineQueue: false, autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
  const requests = new Map<string, number>();

  async function run(command: unknown[]): Promise<Reply> {
    const [name, ...rest] = args(command);
    try {
      return { result: await redis.call(name as string, ...rest) };
    } catch (error) {
      if (error instanceof Error && error.name === 'ReplyError') return { error: error.message };
      throw error;
    }
  }

  async function runBatch(commands: unknown[][], atomic: boolean): Promise<Reply[]> {
    const chain = atomic ? redis.multi() : redis.pipeline();
    for (const command of commands) {
      const [name, ...rest] = args(command);
      chain.call(name as string, ...rest);
    }
    const replies = (await chain.exec()) ?? [];
    return replies.map(([error, result]) => (error ? { error: error.message } : { result }));
  }

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== 'POST') return send(405, { error: 'method not allowed' });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.set(path, (requests.get(path) ?? 0) + 1);
      const base64 = req.headers['upstash-encoding'] === 'base64';
      const wrap = (reply: Reply) => ('result' in reply && base64 ? { result: encode(reply.result) } : reply);
      const body = await readBody(req);
      if (path === '/') {
        if (!isCommand(body)) return send(400, { error: 'ERR body must be a command array' });
        const reply = await run(body);
        return send('error' in reply ? 400 : 200, wrap(reply));
      }
      if (path === '/pipeline' || path === '/multi-exec') {
        if (!Array.isArray(body) || !body.every(isCommand)) return send(400, { error: 'ERR body must be an array of commands' });
        return send(200, (await runBatch(body, path === '/multi-exec')).map(wrap));
      }
      return send(404, { error: `no route ${path}` });
    } catch (error) {
      // The database behind the endpoint is unreachable.
      send(500, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
