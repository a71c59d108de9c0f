/**
 * Plain Redis over TCP for @upstash/redis: a Requester that speaks the Upstash REST request
 * shapes (`/` one command, `/pipeline`, `/multi-exec`) by sending each command array through
 * ioredis `call()`. Redis error replies become `{ error }` like the REST API answers them;
 * connection failures reject, so the limiter fails open.
 */
import type { Requester, UpstashRequest, UpstashResponse } from '@upstash/redis';
import type { Redis as IORedis } from 'ioredis';

type Command = [string, ...unknown[]];

const isReplyError = (error: unknown): error is Error => error instanceof Error && error.name === 'ReplyError';

/**
 * Command name upper-cased: ioredis keys its reply transformers by the lower-case name (it turns
 * HGETALL's array into an object), and @upstash/redis expects the raw RESP reply.
 */
const toArgs = (command: Command): [string, ...string[]] => {
  const [name, ...args] = command;
  return [String(name).toUpperCase(), ...args.map((a) => (typeof a === 'string' ? a : typeof a === 'object' && a !== null ? JSON.stringify(a) : String(a)))];
};

function commandsOf(req: UpstashRequest): Command[] {
  if (!Array.isArray(req.body) || !req.body.every((c) => Array.isArray(c) && c.length > 0)) {
    throw new TypeError('a pipeline body is an array of command arrays');
  }
  return req.body as Command[];
}

async function single(client: IORedis, command: Command): Promise<UpstashResponse<unknown>> {
  const [name, ...args] = toArgs(command);
  try {
    return { result: await client.call(name, ...args) };
  } catch (error) {
    if (isReplyError(error)) return { error: error.message };
    throw error;
  }
}

async function batch(client: IORedis, commands: Command[], atomic: boolean): Promise<Array<UpstashResponse<unknown>>> {
  const chain = atomic ? client.multi() : client.pipeline();
  for (const command of commands) {
    const [name, ...args] = toArgs(command);
    chain.call(name, ...args);
  }
  const replies = await chain.exec();
  if (!replies) throw new Error('transaction aborted');
  return replies.map(([error, result]) => (error ? { error: error.message } : { result }));
}

export function createTcpRequester(client: IORedis): Requester {
  return {
    async request<TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> {
      const path = (req.path ?? []).join('/');
      if (path === '') {
        if (!Array.isArray(req.body) || req.body.length === 0) throw new TypeError('a command is a non-empty array');
        return (await single(client, req.body as Command)) as UpstashResponse<TResult>;
      }
      if (path === 'pipeline' || path === 'multi-exec') {
        // @upstash/redis reads a pipeline's answer as an array of { result | error }.
        return (await batch(client, commandsOf(req), path === 'multi-exec')) as unknown as UpstashResponse<TResult>;
      }
      throw new Error(`the TCP requester does not support /${path}`);
    },
  };
}
