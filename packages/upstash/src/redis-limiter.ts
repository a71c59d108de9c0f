/**
 * The Limiter port on Redis, shared by every instance. The memory Limiter of @catalogue/core
 * defines the semantics; this one keeps them across instances:
 * - admit(): one EVALSHA (ADMIT_SCRIPT) does quota → burst (an exact sliding log) →
 *   concurrency acquire atomically; release(), handed by core to waitUntil, rides on the next
 *   admit of its key in the same turn or one ZREM per key at the turn's end (lease-releases.ts);
 * - the store unreachable, erroring or slower than `timeoutMs` → admit() throws (core fails
 *   open); the call is kept in the ledger under its call id and replayed into the month counter
 *   once the store answers (a call the store did apply left a marker, so it is not counted twice);
 * - runJobs(): replays, then flushes to durable usage only what is confirmed in the counter's
 *   current generation. A counter lost with Redis is re-seeded from durable usage, and counts
 *   confirmed under the old generation are replayed into the new one before they are flushed,
 *   so the seed and the replay never hold the same call. (Left open: Redis restarting between
 *   the replay and the durable write of one flush, a window of one Accounts call.)
 * - the outage buffer is bounded (`maxBufferedCalls`): past it, a group's calls share one
 *   overflow entry (see usage-ledger.ts for what that trades away).
 * - close() at shutdown: replay and flush as runJobs does while Redis answers; what is still
 *   not durable after that (Redis down, docs/decisions.md §8) is added to durable usage directly, so a
 *   stopping instance loses none of the calls it let through. Those calls may then be missing
 *   from the live Redis counter until it is next seeded; durable usage, the billing record, has
 *   each of them once.
 */
import type { Accounts, AdmitRequest, BurstState, Clock, Environment, LimitDecision, Limiter, Logger, PublicDecision } from '@catalogue/core';
import { monthOf, nextMonthStart } from '@catalogue/core';
import type { Redis } from '@upstash/redis';
import { markerOf, type NumberedCall, numberedCalls } from './call-markers.js';
import { fromUpstash, isLimiterCommands, type LimiterCommands } from './commands.js';
import { type LimiterKeys, limiterKeys } from './keys.js';
import { leaseReleases } from './lease-releases.js';
import { ADMIT_SCRIPT, PEEK_SCRIPT, PUBLIC_SCRIPT, REPLAY_SCRIPT } from './scripts.js';
import { createUsageLedger, type LedgerGroup, type UsageLedger } from './usage-ledger.js';
import { StoreTimeoutError, timeLimit } from './with-timeout.js';

/** Same windows as the memory Limiter (@catalogue/core/memory BURST_WINDOW_MS, LEASE_MS). */
export const BURST_WINDOW_MS = 60_000;
export const LEASE_MS = 60_000;
/** How long a counted call id is remembered: a late or replayed count within it is ignored. */
export const CALL_MARKER_TTL_MS = 15 * 60_000;
/** Month counters outlive their month so late replays and usage reads still find them. */
const MONTH_COUNTER_GRACE_MS = 35 * 24 * 3_600_000;
const WINDOW_ARG = String(BURST_WINDOW_MS);
const LEASE_ARG = String(LEASE_MS);
const MARKER_TTL_ARG = String(CALL_MARKER_TTL_MS);
/** ADMIT_SCRIPT's ARGV index (from 0) of the month counter's seed. */
const SEED_ARG = 9;
/** Markers per replay script call. */
const REPLAY_CHUNK = 500;
/** Failed-open calls kept one entry each (about 100 bytes apiece: ~10 MB) before overflow entries. */
export const MAX_BUFFERED_CALLS = 100_000;

export interface RedisLimiterOptions {
  /** An @upstash/redis client (REST: `new Redis({ url, token })`), or the TCP commands of `createTcpRedis(url).commands`. */
  redis: Redis | LimiterCommands;
  /** Durable monthly usage (the Accounts port). */
  accounts: Pick<Accounts, 'addUsage' | 'getUsage'>;
  clock?: Clock;
  logger?: Logger;
  prefix?: string;
  /** An admit slower than this fails open (docs/decisions.md §8). */
  timeoutMs?: number;
  /** Time limit of background store calls (release, replay, flush). */
  backgroundTimeoutMs?: number;
  /** Bound of the outage buffer's per-call entries (default MAX_BUFFERED_CALLS). */
  maxBufferedCalls?: number;
}

export interface RedisLimiter extends Limiter {
  runJobs(now: number): Promise<void>;
  /** Calls admitted by this instance not yet in durable usage. */
  pendingCalls(customerId: string, environment: Environment, month: string): number;
  /** Entries the outage buffer holds (at most maxBufferedCalls plus one overflow entry per group). */
  bufferedEntries(): number;
  readonly keys: LimiterKeys;
}

type Reply = Array<string | number | null>;

interface KeyNames {
  customerId: string;
  environment: Environment;
  monthName: string;
  burst: string;
  month: string;
  leases: string;
}

const MAX_CACHED_KEY_NAMES = 10_000;

export function createRedisLimiter(options: RedisLimiterOptions): RedisLimiter {
  const { accounts } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const logger = options.logger;
  const timeoutMs = options.timeoutMs ?? 50;
  const backgroundTimeoutMs = options.backgroundTimeoutMs ?? 2_000;
  // One deadline list and timer per limit, not a timer per call (with-timeout.ts).
  const inTime = timeLimit(timeoutMs);
  const inBackgroundTime = timeLimit(backgroundTimeoutMs);
  const keys = limiterKeys(options.prefix ?? 'catalogue:limits');
  const newId = () => crypto.randomUUID();
  const nextCall = numberedCalls(keys, newId);
  const ledger: UsageLedger = createUsageLedger({ maxBufferedCalls: options.maxBufferedCalls ?? MAX_BUFFERED_CALLS, newId });

  const redis = isLimiterCommands(options.redis) ? options.redis : fromUpstash(options.redis);
  const script = <T>(lua: string) => ({ exec: (keys: string[], args: string[]) => redis.evalScript<T>(lua, keys, args) });
  const admitScript = script<Reply>(ADMIT_SCRIPT);
  const replayScript = script<Reply>(REPLAY_SCRIPT);
  const peekScript = script<[number, number]>(PEEK_SCRIPT);
  const publicScript = script<number>(PUBLIC_SCRIPT);

  // The month of `now` and where it ends, worked out once a month rather than per request.
  let monthStart = 0;
  let monthEnd = 0;
  let monthName = '';
  const monthAt = (now: number) => {
    if (now < monthStart || now >= monthEnd) {
      monthName = monthOf(now);
      monthStart = Date.parse(`${monthName}-01T00:00:00Z`);
      monthEnd = nextMonthStart(now);
    }
    return monthName;
  };
  // A relative TTL (Redis' own clock may disagree with the injected one): the rest of the
  // month as the caller sees it, plus the grace. The admit's month is the current one; a replay
  // may name an earlier month.
  const monthTtlMs = (month: string, now: number) => {
    const end = month === monthName ? monthEnd : nextMonthStart(Date.parse(`${month}-01T00:00:00Z`));
    return Math.max(0, end - now) + MONTH_COUNTER_GRACE_MS;
  };
  const windowOf = (now: number) => Math.floor(now / BURST_WINDOW_MS);

  function warn(kind: string, fields: Record<string, unknown>, error?: unknown): void {
    logger?.log({
      level: 'warn',
      kind,
      ...fields,
      ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
    });
  }

  // Releases leave with the next admit of their key in the same turn, or one ZREM per key at its
  // end (lease-releases.ts). The lease expires after LEASE_MS anyway; a failed release only
  // holds the slot until then.
  const releases = leaseReleases(
    (leaseKey, leaseIds) => inBackgroundTime.wrap(redis.zrem(leaseKey, ...leaseIds)),
    (leaseKey, error) => warn('ratelimit.release_failed', { lease_key: leaseKey }, error),
  );
  const releaseLease = (keyId: string, leaseId: string) => releases.release(keys.leases(keyId), leaseId);

  // An API key's three key names, made again only when its customer, environment or month
  // changes (a request's strings, issue 14); bounded by clearing, as keys in use come back.
  const keyNames = new Map<string, KeyNames>();
  function keyNamesOf(customerId: string, environment: Environment, keyId: string, month: string): KeyNames {
    let names = keyNames.get(keyId);
    if (names === undefined || names.customerId !== customerId || names.environment !== environment || names.monthName !== month) {
      if (keyNames.size >= MAX_CACHED_KEY_NAMES) keyNames.clear();
      names = {
        customerId,
        environment,
        monthName: month,
        burst: keys.burst(customerId, environment),
        month: keys.month(customerId, environment, month),
        leases: keys.leases(keyId),
      };
      keyNames.set(keyId, names);
    }
    return names;
  }

  // A spike on a counter that is missing answers `seed` to every admit of it at once: they share
  // one durable read (issue 27), not one PostgreSQL query each against the pool's backstop.
  const seedReads = new Map<string, Promise<number>>();
  function durableUsage(monthKey: string, customerId: string, environment: Environment, month: string): Promise<number> {
    let read = seedReads.get(monthKey);
    if (read === undefined) {
      read = accounts.getUsage(customerId, environment, month).finally(() => seedReads.delete(monthKey));
      seedReads.set(monthKey, read);
    }
    return read;
  }

  async function runAdmit(request: AdmitRequest, call: NumberedCall, month: string): Promise<Reply> {
    const { customerId, environment, keyId, policy, now } = request;
    const { id: callId, marker } = call;
    const names = keyNamesOf(customerId, environment, keyId, month);
    const scriptKeys = [names.burst, names.month, names.leases, marker.key, keys.authEpoch];
    // Strings as Redis takes them, made directly: this runs on every request (issue 14).
    const args = [
      String(now),
      WINDOW_ARG,
      String(policy.burstPerMinute),
      String(policy.quotaPerMonth),
      policy.quotaMode === 'block' ? '1' : '0',
      String(policy.concurrency),
      LEASE_ARG,
      callId,
      MARKER_TTL_ARG,
      '', // the month counter's seed: known only on the second try below
      String(monthTtlMs(month, now)),
      request.authEpoch ?? '',
      String(marker.bit),
    ];
    // Leases of this key released earlier in this turn: the script removes them first.
    const folded = releases.take(scriptKeys[2] as string);
    let reply: Reply;
    try {
      reply = await inTime.wrap(admitScript.exec(scriptKeys, folded ? args.concat(folded.leaseIds) : args));
    } catch (error) {
      if (folded) releases.resend(folded);
      throw error;
    }
    if (folded) releases.landed(folded);
    if (reply[0] !== 'seed') return reply;
    // The month counter is missing (new month, or Redis restarted empty): seed it from durable usage.
    const durable = await durableUsage(names.month, customerId, environment, month);
    args[SEED_ARG] = String(durable);
    const seeded = await inTime.wrap(admitScript.exec(scriptKeys, args));
    if (seeded[0] === 'seed') throw new Error('month counter could not be seeded');
    return seeded;
  }

  // ── replay and durable flush ──

  async function replayGroup(group: LedgerGroup): Promise<string> {
    const monthKey = keys.month(group.customerId, group.environment, group.month);
    const entries = ledger.snapshot(group);
    let gen: string | null = null;
    // With nothing to replay the script still answers the counter's generation (and seeds it).
    for (let i = 0; i === 0 || i < entries.length; i += REPLAY_CHUNK) {
      const chunk = entries.slice(i, i + REPLAY_CHUNK);
      const markers = chunk.map(([id]) => markerOf(keys, id));
      const scriptKeys = [monthKey, ...markers.map((marker) => marker.key)];
      const args = (seed: string) =>
        [seed, `g${newId()}`, monthTtlMs(group.month, clock.now()), CALL_MARKER_TTL_MS, ...chunk.flatMap(([, count], j) => [count, markers[j]?.bit ?? -1])].map(
          String,
        );
      let reply = await inBackgroundTime.wrap(replayScript.exec(scriptKeys, args('')));
      if (reply[0] === 'seed') {
        const durable = await durableUsage(monthKey, group.customerId, group.environment, group.month);
        reply = await inBackgroundTime.wrap(replayScript.exec(scriptKeys, args(String(durable))));
      }
      if (reply[0] !== 'ok') throw new Error('month counter could not be seeded for replay');
      gen = String(reply[1]);
      for (const [id, count] of chunk) {
        ledger.settle(group, id);
        group.confirmed.set(gen, (group.confirmed.get(gen) ?? 0) + count);
      }
    }
    return gen as string;
  }

  async function syncGroup(group: LedgerGroup, flushDurable: boolean): Promise<void> {
    let gen = await replayGroup(group);
    // Counts confirmed under another generation were lost when Redis restarted empty (the
    // counter was re-seeded from durable usage, which does not hold them yet): count them again.
    let lost = false;
    for (const [oldGen, count] of group.confirmed) {
      if (oldGen === gen) continue;
      group.confirmed.delete(oldGen);
      ledger.rebuffer(group, `lost:${newId()}`, count);
      lost = true;
    }
    if (lost) gen = await replayGroup(group);
    if (!flushDurable) return;
    const count = group.confirmed.get(gen) ?? 0;
    if (count === 0) return;
    await accounts.addUsage(group.customerId, group.environment, group.month, count);
    // Admits may have confirmed more under `gen` meanwhile; only what was flushed leaves.
    const left = (group.confirmed.get(gen) ?? 0) - count;
    if (left > 0) group.confirmed.set(gen, left);
    else group.confirmed.delete(gen);
  }

  async function syncAll(flushDurable: boolean): Promise<void> {
    for (const group of ledger.groups()) {
      try {
        await syncGroup(group, flushDurable);
      } catch (error) {
        warn(
          'ratelimit.sync_failed',
          {
            customer_id: group.customerId,
            environment: group.environment,
            month: group.month,
            durable: flushDurable,
          },
          error,
        );
      } finally {
        ledger.prune(group);
      }
    }
  }

  // One sync at a time: a replay and a flush of the same group must not interleave.
  let syncing: Promise<void> = Promise.resolve();
  let replayQueued = false;
  function sync(flushDurable: boolean): Promise<void> {
    const run = syncing.then(() => syncAll(flushDurable));
    syncing = run.catch(() => {});
    return run;
  }

  /** The store answered again: replay what was buffered, off the response path (one at a time). */
  function kickReplay(): void {
    if (replayQueued || !ledger.hasUnconfirmed()) return;
    replayQueued = true;
    void sync(false).finally(() => {
      replayQueued = false;
    });
  }

  return {
    keys,

    async admit(request: AdmitRequest): Promise<LimitDecision> {
      const { customerId, environment, keyId, policy, now } = request;
      const month = monthAt(now);
      const call = nextCall();
      const callId = call.id;
      let reply: Reply;
      try {
        reply = await runAdmit(request, call, month);
      } catch (error) {
        // Core lets this call through (fail open), so it counts: buffer it under its call id; the
        // replay counts it unless the script did land (its marker then says so).
        const buffered = ledger.buffer(customerId, environment, month, callId, 1);
        if (buffered === 'overflow-opened') {
          // Once per group and replay cycle: the outage outlasted the per-call buffer.
          warn('ratelimit.buffer_full', { customer_id: customerId, environment, month, buffered_calls: ledger.entries() });
        }
        if (error instanceof StoreTimeoutError) void releaseLease(keyId, callId);
        throw error;
      }
      const [status, gen, used, burst, nextFree, epoch] = reply;
      const authEpoch = String(epoch);
      if (status === 'stale') {
        // The caller's cached key lookup predates a change to accounts: nothing was counted.
        return {
          allowed: false,
          stale: true,
          reason: null,
          limit: policy.burstPerMinute,
          remaining: 0,
          reset: 0,
          retryAfterSeconds: 0,
          monthCount: 0,
          release: async () => {},
          authEpoch,
        };
      }
      const monthCount = Number(used);
      const burstUsed = Number(burst);
      const nextFreeAt = Number(nextFree);
      if (status === 'ok') {
        // The answer of nearly every request: built in one literal (issue 14, the hot path).
        ledger.confirm(customerId, environment, month, String(gen), 1);
        kickReplay();
        let released: Promise<void> | null = null;
        return {
          allowed: true,
          reason: null,
          limit: policy.burstPerMinute,
          remaining: Math.max(0, policy.burstPerMinute - burstUsed),
          reset: Math.ceil(nextFreeAt / 1000),
          retryAfterSeconds: 0,
          monthCount,
          release: () => (released ??= releaseLease(keyId, callId)),
          authEpoch,
        };
      }
      const base = {
        limit: policy.burstPerMinute,
        reset: Math.ceil(nextFreeAt / 1000),
        monthCount,
        release: async () => {},
        authEpoch,
      };
      switch (status) {
        case 'quota':
          return {
            ...base,
            allowed: false,
            reason: 'quota',
            remaining: 0,
            retryAfterSeconds: Math.ceil((nextMonthStart(now) - now) / 1000),
          };
        case 'burst':
          return {
            ...base,
            allowed: false,
            reason: 'burst',
            remaining: 0,
            retryAfterSeconds: Math.max(1, Math.ceil((nextFreeAt - now) / 1000)),
          };
        case 'concurrency':
          return {
            ...base,
            allowed: false,
            reason: 'concurrency',
            remaining: Math.max(0, policy.burstPerMinute - burstUsed),
            retryAfterSeconds: 1,
          };
        default:
          throw new Error(`unexpected limiter reply ${String(status)}`);
      }
    },

    async peek(request: AdmitRequest): Promise<BurstState> {
      const { customerId, environment, policy, now } = request;
      const [used, nextFree] = await inTime.wrap(peekScript.exec([keys.burst(customerId, environment)], [String(now), String(BURST_WINDOW_MS)]));
      return {
        limit: policy.burstPerMinute,
        remaining: Math.max(0, policy.burstPerMinute - Number(used)),
        reset: Math.ceil(Number(nextFree) / 1000),
      };
    },

    async monthCount(customerId, environment, month) {
      try {
        const live = await inTime.wrap(redis.hget(keys.month(customerId, environment, month), 'n'));
        if (live !== null && live !== undefined) return Number(live);
      } catch (error) {
        warn('ratelimit.month_count_fallback', { customer_id: customerId, environment, month }, error);
      }
      // No live counter (or no store): durable usage plus what this instance has not flushed.
      return (await accounts.getUsage(customerId, environment, month)) + ledger.pending(customerId, environment, month);
    },

    async admitPublic(ip: string, limitPerMinute: number, now: number): Promise<PublicDecision> {
      const window = windowOf(now);
      const resetAt = (window + 1) * BURST_WINDOW_MS;
      const remaining = Number(
        await inTime.wrap(
          publicScript.exec([keys.publicBurst(ip, window), keys.publicBurst(ip, window - 1)], [limitPerMinute, now, BURST_WINDOW_MS].map(String)),
        ),
      );
      const reset = Math.ceil(resetAt / 1000);
      if (remaining < 0)
        return {
          allowed: false,
          limit: limitPerMinute,
          remaining: 0,
          reset,
          retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
        };
      return {
        allowed: true,
        limit: limitPerMinute,
        remaining,
        reset,
        retryAfterSeconds: 0,
      };
    },

    async runJobs(_now: number) {
      // Windows, leases and call markers expire in Redis by themselves; what is left is to
      // replay buffered counts and persist month counts (the ledger) to durable usage.
      await sync(true);
    },

    async close() {
      await releases.flush();
      await syncing;
      let storeAnswers = true;
      for (const group of ledger.groups()) {
        if (storeAnswers) {
          try {
            await syncGroup(group, true);
          } catch (error) {
            // One timeout is enough to know: the other groups go straight to durable usage.
            storeAnswers = false;
            warn('ratelimit.close_without_store', { customer_id: group.customerId, environment: group.environment, month: group.month }, error);
          }
        }
        const left = ledger.drain(group);
        ledger.prune(group);
        if (left === 0) continue;
        try {
          await accounts.addUsage(group.customerId, group.environment, group.month, left);
        } catch (error) {
          logger?.log({
            level: 'error',
            kind: 'usage.lost',
            customer_id: group.customerId,
            environment: group.environment,
            month: group.month,
            calls: left,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    },

    async bumpAuthEpoch() {
      await inBackgroundTime.wrap(redis.set(keys.authEpoch, `e${newId()}`));
    },

    pendingCalls: (customerId, environment, month) => ledger.pending(customerId, environment, month),
    bufferedEntries: () => ledger.entries(),
  };
}
