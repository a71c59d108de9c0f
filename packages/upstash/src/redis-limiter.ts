/**
 * The Limiter port on Redis, shared by every instance. The memory Limiter of @catalogue/core
 * defines the semantics; this one keeps them across instances. Its parts, one concern each:
 * - admission.ts: the decisions (admit, peek, the month count, the public window); release(),
 *   handed by core to waitUntil, rides on the next admit of its key in the same turn or one ZREM
 *   per key at the turn's end (lease-releases.ts);
 * - usage-replay.ts: calls the counter does not hold (admitted while the store failed, or lost
 *   with a Redis restart) counted into it, once;
 * - usage-flush.ts: durable usage flushed from the counters themselves by any live instance, so a
 *   crashed instance loses nothing (issue 27);
 * - here, the lifecycle: runJobs() (replay, then flush), close() and the accounts epoch.
 * The time limits judge the store, not the host (with-timeout.ts): a busy host never fails open.
 */
import type { Clock, DurableUsage, Limiter, Logger } from '@catalogue/core';
import type { Redis } from '@upstash/redis';
import { createAdmission } from './admission.js';
import { authEpochs } from './auth-epochs.js';
import { numberedCalls } from './call-markers.js';
import { fromUpstash, isLimiterCommands, type LimiterCommands } from './commands.js';
import { type LimiterKeys, limiterKeys } from './keys.js';
import { leaseReleases } from './lease-releases.js';
import { limiterContext } from './limiter-context.js';
import { MAX_BUFFERED_CALLS } from './timings.js';
import { type CounterRef, createUsageFlush, FLUSH_CLAIM_TTL_MS } from './usage-flush.js';
import { createUsageLedger } from './usage-ledger.js';
import { createUsageReplay } from './usage-replay.js';
import { timeLimit } from './with-timeout.js';

export { BURST_WINDOW_MS, CALL_MARKER_TTL_MS, LEASE_MS, MAX_BUFFERED_CALLS } from './timings.js';

export interface RedisLimiterOptions {
  /** An @upstash/redis client (REST: `new Redis({ url, token })`), or the TCP commands of `createTcpRedis(url).commands`. */
  redis: Redis | LimiterCommands;
  /** Durable monthly usage: the DurableUsage slice of the Accounts port. */
  accounts: DurableUsage;
  clock?: Clock;
  logger?: Logger;
  prefix?: string;
  /** An admit whose reply has not come this long after it was sent fails open (docs/decisions.md §8). */
  timeoutMs?: number;
  /** Time limit of background store calls (release, replay, flush). */
  backgroundTimeoutMs?: number;
  /** Bound of the outage buffer's per-call entries (default MAX_BUFFERED_CALLS). */
  maxBufferedCalls?: number;
  /** A flush claim older than this is taken over (default FLUSH_CLAIM_TTL_MS). */
  flushClaimTtlMs?: number;
}

export interface RedisLimiter extends Limiter {
  runJobs(now: number): Promise<void>;
  /** Calls admitted by this instance not known to be in durable usage. */
  pendingCalls(customerId: string, environment: 'live' | 'test', month: string): number;
  /** Entries the outage buffer holds (at most maxBufferedCalls plus one overflow entry per group). */
  bufferedEntries(): number;
  readonly keys: LimiterKeys;
}

const counterFields = (counter: CounterRef) => ({ customer_id: counter.customerId, environment: counter.environment, month: counter.month });

export function createRedisLimiter(options: RedisLimiterOptions): RedisLimiter {
  const { accounts } = options;
  const redis = isLimiterCommands(options.redis) ? options.redis : fromUpstash(options.redis);
  // A Redis Cluster keeps the accounts epoch once per slot (keys.ts): a script's keys share one slot.
  const keys = limiterKeys(options.prefix ?? 'catalogue:limits', { epochPerSlot: () => redis.cluster === true });
  const newId = () => crypto.randomUUID();
  // One deadline list and timer per limit, not a timer per call (with-timeout.ts).
  const inBackgroundTime = timeLimit(options.backgroundTimeoutMs ?? 2_000);
  const ctx = limiterContext({
    redis,
    accounts,
    clock: options.clock ?? { now: () => Date.now() },
    keys,
    ledger: createUsageLedger({ maxBufferedCalls: options.maxBufferedCalls ?? MAX_BUFFERED_CALLS, newId }),
    inTime: timeLimit(options.timeoutMs ?? 50),
    inBackgroundTime,
    newId,
    logger: options.logger,
  });
  const { ledger } = ctx;

  // The lease expires after LEASE_MS anyway; a failed release only holds the slot until then.
  const releases = leaseReleases(
    (leaseKey, leaseIds) => inBackgroundTime.wrap(redis.zrem(leaseKey, ...leaseIds)),
    (leaseKey, error) => ctx.warn('ratelimit.release_failed', { lease_key: leaseKey }, error),
  );
  const replay = createUsageReplay(ctx);
  const flush = createUsageFlush(ctx, options.flushClaimTtlMs ?? FLUSH_CLAIM_TTL_MS);
  const epochs = authEpochs(ctx);
  const admission = createAdmission(ctx, { releases, flush, replay, nextCall: numberedCalls(keys, newId), epochs });

  return {
    keys,
    ...admission,

    async runJobs(now: number) {
      // Windows, leases and call markers expire in Redis by themselves; what is left is to count
      // what the counters miss, then to make the counters durable.
      await replay.sync();
      await flush.flushAll(now);
    },

    /**
     * At shutdown: replay and flush this instance's counters while Redis answers. Without the
     * store (docs/decisions.md §8) a stopping instance still loses none of the calls it let
     * through: calls the store never took go to durable usage directly (they may then be missing
     * from the live counter until it is next seeded), and calls Redis counted but no flush has
     * made durable yet go there by their places in the counter (Accounts.addUsageDirect), which
     * the counter's next flush skips should Redis come back with its data.
     */
    async close() {
      await releases.flush();
      await replay.idle();
      let storeAnswers = true;
      for (const group of ledger.groups()) {
        const counter = { customerId: group.customerId, environment: group.environment, month: group.month };
        if (storeAnswers) {
          try {
            await replay.syncGroup(group);
            await flush.flushCounter(counter);
            ledger.prune(group);
            continue;
          } catch (error) {
            // One timeout is enough to know: the other groups go straight to durable usage.
            storeAnswers = false;
            ctx.warn('ratelimit.close_without_store', counterFields(counter), error);
          }
        }
        const left = ledger.drainUnconfirmed(group);
        const counted = ledger.takeUndurable(group);
        ledger.prune(group);
        try {
          if (left > 0) await accounts.addUsage(group.customerId, group.environment, group.month, left);
          for (const { generation, positions } of counted) await accounts.addUsageDirect({ ...counter, generation, positions });
        } catch (error) {
          options.logger?.log({
            level: 'error',
            kind: 'usage.lost',
            ...counterFields(counter),
            calls: left + counted.reduce((sum, { positions }) => sum + positions.length, 0),
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    },

    bumpAuthEpoch: epochs.bump,

    pendingCalls: (customerId, environment, month) => ledger.pending(customerId, environment, month),
    bufferedEntries: () => ledger.entries(),
  };
}
