/**
 * The accounts epoch (docs/decisions.md §3): a bump moves it on after every change the key gate
 * reads. On a single Redis it is one key, read by the admit script. On a Redis Cluster the admit
 * script may only read keys of its customer's slot, so it reads that slot's copy (keys.ts): a
 * bump writes the global key, then one new id into every copy, before its caller hears of it, so
 * an admit of any slot proves cached entries as the single key did, and the key cache's epochs
 * still compare across customers (key-cache.ts).
 *
 * A copy that is missing (a new cluster, a node that restarted empty) is seeded from the global
 * key: the admit answers `epoch`, the limiter reads the global epoch (one read for every admit
 * waiting on it) and sends the admit again with it (ADMIT_SCRIPT). So a new cluster costs a read
 * per slot in use, not a bump of 16,384 copies per instance during its first spike (16,384
 * commands queued ahead of the spike's admits, which then fail open). A global key that is
 * itself gone is made anew; copies that survived it keep the old epoch until the next bump,
 * which costs the key cache hits (entries of those slots compare unequal), never correctness:
 * each entry is proved against its own slot's copy.
 */
import type { LimiterContext } from './limiter-context.js';
import { GLOBAL_EPOCH_SCRIPT } from './scripts.js';

export interface AuthEpochs {
  bump(): Promise<void>;
  /** The global epoch, to seed a slot's missing copy with (made when missing). */
  current(): Promise<string>;
}

export function authEpochs(ctx: Pick<LimiterContext, 'redis' | 'keys' | 'inBackgroundTime' | 'inTime' | 'newId' | 'script'>): AuthEpochs {
  const { redis, keys } = ctx;
  let reading: Promise<string> | null = null;

  async function bump(): Promise<void> {
    const epoch = `e${ctx.newId()}`;
    // The global key first: a copy seeded meanwhile takes the new epoch too.
    await ctx.inBackgroundTime.wrap(redis.set(keys.globalAuthEpoch, epoch));
    const copies = keys.authEpochs().filter((key) => key !== keys.globalAuthEpoch);
    await ctx.inBackgroundTime.wrap(Promise.all(copies.map((key) => redis.set(key, epoch))));
  }

  const globalScript = ctx.script<[string]>(GLOBAL_EPOCH_SCRIPT);

  async function read(): Promise<string> {
    const [epoch] = await ctx.inTime.wrap(globalScript.exec([keys.globalAuthEpoch], [`e${ctx.newId()}`]));
    return String(epoch);
  }

  return {
    bump,
    current() {
      reading ??= read().finally(() => {
        reading = null;
      });
      return reading;
    },
  };
}
