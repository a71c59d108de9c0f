/**
 * The limiter's commands straight on ioredis (REDIS_URL), without @upstash/redis in between:
 * on the gate's hot path that layer cost about a tenth of a request's CPU (it turns each reply
 * into JSON values the limiter does not want). EVALSHA with the script's SHA-1, loading it with
 * EVAL on NOSCRIPT (a Redis that restarted empty). Each command is one ioredis Command on the
 * socket, the commands of one event-loop turn in one write (tcp-sender.ts).
 */
import { createHash } from 'node:crypto';
import type { Cluster, Redis as IORedis } from 'ioredis';
import type { LimiterCommands } from './commands.js';
import { commandSender } from './tcp-sender.js';

const isNoScript = (error: unknown) => error instanceof Error && error.message.startsWith('NOSCRIPT');

/** On a Cluster, EVALSHA and its NOSCRIPT fallback go to the master of the keys' slot (each node loads the script once). */
export function tcpCommands(connection: IORedis | Cluster): LimiterCommands {
  const send = commandSender(connection);
  const shas = new Map<string, string>();
  const shaOf = (script: string) => {
    let sha = shas.get(script);
    if (!sha) {
      sha = createHash('sha1').update(script).digest('hex');
      shas.set(script, sha);
    }
    return sha;
  };
  return {
    cluster: connection.isCluster,
    evalScript<T>(script: string, keys: string[], args: string[]) {
      // EVALSHA's arguments as one flat array, filled by plain loops (no spreads): it runs per request.
      const flat = [shaOf(script), String(keys.length)];
      for (let i = 0; i < keys.length; i++) flat.push(keys[i] as string);
      for (let i = 0; i < args.length; i++) flat.push(args[i] as string);
      return send<T>('evalsha', flat).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        // The same arguments with the script's text in place of its SHA-1 (ioredis copied `flat`).
        flat[0] = script;
        return send<T>('eval', flat);
      });
    },
    zrem: (key, ...members) => send('zrem', [key].concat(members)),
    hget: (key, field) => send<string | null>('hget', [key, field]),
    set: (key, value) => send('set', [key, value]),
  };
}
