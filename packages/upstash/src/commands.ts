/**
 * The few Redis commands the limiter sends, over either transport: Upstash REST through
 * @upstash/redis (`fromUpstash`), or plain TCP straight through ioredis (tcp-commands.ts).
 * Replies are Redis's own (strings and numbers as RESP gives them): the limiter reads them
 * positionally, so no client-side deserialization is wanted.
 */
import type { Redis } from '@upstash/redis';

export interface LimiterCommands {
  /**
   * True on a Redis Cluster: each command goes to the master of its keys' slot, so keys that are
   * not a customer's (the accounts epoch) are kept once per slot (keys.ts).
   */
  readonly cluster?: boolean;
  /** EVALSHA of `script` (loading it on NOSCRIPT); the reply as Redis gives it. */
  evalScript<T>(script: string, keys: string[], args: string[]): Promise<T>;
  /** Removes every member given (one command). */
  zrem(key: string, ...members: string[]): Promise<unknown>;
  hget(key: string, field: string): Promise<string | number | null>;
  set(key: string, value: string): Promise<unknown>;
}

export function isLimiterCommands(client: Redis | LimiterCommands): client is LimiterCommands {
  return typeof (client as LimiterCommands).evalScript === 'function';
}

/** Upstash's client: its scripts cache the SHA and fall back to EVAL on NOSCRIPT. */
export function fromUpstash(redis: Redis): LimiterCommands {
  const scripts = new Map<string, ReturnType<Redis['createScript']>>();
  return {
    evalScript<T>(script: string, keys: string[], args: string[]) {
      let compiled = scripts.get(script);
      if (!compiled) {
        compiled = redis.createScript(script);
        scripts.set(script, compiled);
      }
      return compiled.exec(keys, args) as Promise<T>;
    },
    zrem: (key, ...members) => redis.zrem(key, ...members),
    hget: (key, field) => redis.hget<string | number>(key, field),
    set: (key, value) => redis.set(key, value),
  };
}
