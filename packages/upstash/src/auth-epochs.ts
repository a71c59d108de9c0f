/**
 * The accounts epoch's writes (docs/decisions.md §3): a bump moves it on after every change the
 * key gate reads. On a Redis Cluster it is kept once per slot (keys.ts), since the admit script
 * may only read keys of its customer's slot: a bump writes one new id into every copy before its
 * caller hears of it, so an admit of any slot proves cached entries as the single key did, and
 * the key cache's epochs still compare across customers (key-cache.ts).
 *
 * A copy that is missing (a Redis that restarted empty, a new cluster, a failover that lost it)
 * is made by the admit script of its slot, 'c' and the call's id (ADMIT_SCRIPT): that slot's
 * alone. The limiter that sees one bumps once, so every slot holds one epoch again.
 */
import type { LimiterContext } from './limiter-context.js';

/** First letter of an accounts epoch the admit script created ('c'), not a bump ('e'). */
const CREATED = 'c'.charCodeAt(0);

export interface AuthEpochs {
  bump(): Promise<void>;
  /** An admit's answer: a created epoch starts one bump (at most one at a time). */
  saw(epoch: string): void;
}

export function authEpochs(ctx: Pick<LimiterContext, 'redis' | 'keys' | 'inBackgroundTime' | 'newId' | 'warn'>): AuthEpochs {
  const { redis, keys } = ctx;
  let unifying = false;

  async function bump(): Promise<void> {
    const epoch = `e${ctx.newId()}`;
    await ctx.inBackgroundTime.wrap(Promise.all(keys.authEpochs().map((key) => redis.set(key, epoch))));
  }

  return {
    bump,
    saw(epoch) {
      if (unifying || epoch.charCodeAt(0) !== CREATED) return;
      unifying = true;
      bump()
        .catch((error: unknown) => ctx.warn('ratelimit.epoch_unify_failed', {}, error))
        .finally(() => {
          unifying = false;
        });
    },
  };
}
