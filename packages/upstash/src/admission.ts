/**
 * The Redis limiter's decisions (docs/decisions.md §2, §8): admit() is one EVALSHA
 * (ADMIT_SCRIPT: quota → burst, an exact sliding log → concurrency acquire, atomically); the
 * store unreachable, erroring or slower than the admit's limit → admit() throws (core fails
 * open) and the call is kept in the ledger under its call id for the replay (usage-replay.ts).
 * Also the peek of /usage, the live month count and the public per-IP window.
 */
import type { AdmitRequest, BurstState, Environment, LimitDecision, Limiter, PublicDecision, SubjectWindow } from '@catalogue/core';
import { nextMonthStart } from '@catalogue/core';
import type { AuthEpochs } from './auth-epochs.js';
import type { NumberedCall } from './call-markers.js';
import type { LeaseReleases } from './lease-releases.js';
import type { LimiterContext } from './limiter-context.js';
import { ADMIT_SCRIPT, PEEK_SCRIPT, PUBLIC_SCRIPT } from './scripts.js';
import { BURST_WINDOW_MS, CALL_MARKER_TTL_MS, LEASE_MS } from './timings.js';
import type { UsageFlush } from './usage-flush.js';
import type { UsageReplay } from './usage-replay.js';
import { StoreTimeoutError } from './with-timeout.js';

const WINDOW_ARG = String(BURST_WINDOW_MS);
const LEASE_ARG = String(LEASE_MS);
const MARKER_TTL_ARG = String(CALL_MARKER_TTL_MS);
/** ADMIT_SCRIPT's ARGV index (from 0) of the month counter's seed. */
const SEED_ARG = 9;
/** ADMIT_SCRIPT's ARGV index (from 0) of the accounts epoch's seed. */
const EPOCH_SEED_ARG = 13;
const MAX_CACHED_KEY_NAMES = 10_000;

type Reply = Array<string | number | null>;

interface KeyNames {
  customerId: string;
  environment: Environment;
  monthName: string;
  burst: string;
  month: string;
  leases: string;
  /** The cluster slot of these keys: the call marker and the epoch read with them sit there too (keys.ts). */
  slot: number;
  /** The counter as usage-flush.ts names it. */
  counter: { customerId: string; environment: Environment; month: string };
}

export interface AdmissionParts {
  releases: LeaseReleases;
  flush: UsageFlush;
  replay: UsageReplay;
  /** A new call id and its marker, numbered in the customer's slot (call-markers.ts). */
  nextCall: (slot: number) => NumberedCall;
  epochs: AuthEpochs;
}

export type Admission = Pick<Limiter, 'admit' | 'peek' | 'monthCount' | 'admitPublic'>;

export function createAdmission(ctx: LimiterContext, parts: AdmissionParts): Admission {
  const { keys, ledger, accounts, inTime } = ctx;
  const { releases, flush, replay, nextCall, epochs } = parts;
  const admitScript = ctx.script<Reply>(ADMIT_SCRIPT);
  const peekScript = ctx.script<[number, number]>(PEEK_SCRIPT);
  const publicScript = ctx.script<number>(PUBLIC_SCRIPT);
  const releaseLease = (customerId: string, keyId: string, leaseId: string) => releases.release(keys.leases(customerId, keyId), leaseId);

  // An API key's key names, made again only when its customer, environment or month changes (a
  // request's strings, issue 14); bounded by clearing, as keys in use come back.
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
        leases: keys.leases(customerId, keyId),
        slot: keys.slotOf(customerId),
        counter: { customerId, environment, month },
      };
      keyNames.set(keyId, names);
    }
    return names;
  }

  async function runAdmit(request: AdmitRequest, call: NumberedCall, names: KeyNames): Promise<Reply> {
    const { policy, now } = request;
    const { id: callId, marker } = call;
    const scriptKeys = [names.burst, names.month, names.leases, marker.key, keys.authEpoch(names.slot)];
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
      String(ctx.monthTtlMs(names.monthName, now)),
      request.authEpoch ?? '',
      String(marker.bit),
      // A missing accounts epoch: made here on a single Redis, seeded from the global one on a cluster.
      ctx.redis.cluster === true ? '' : '*',
    ];
    // The counter is in its month's "counted" set before this call can be in it (usage-flush.ts).
    flush.beforeAdmit(names.month, names.counter);
    // Leases of this key released earlier in this turn: the script removes them first.
    const folded = releases.take(names.leases);
    let reply: Reply;
    try {
      reply = await inTime.wrap(admitScript.exec(scriptKeys, folded ? args.concat(folded.leaseIds) : args));
    } catch (error) {
      if (folded) releases.resend(folded);
      throw error;
    }
    if (folded) releases.landed(folded);
    // Something the script needs is missing; it counted nothing: seed it and send the call again.
    for (let tries = 0; reply[0] === 'seed' || reply[0] === 'epoch'; tries++) {
      if (tries === 2) throw new Error(`the admit script could not be seeded (${String(reply[0])})`);
      if (reply[0] === 'epoch') {
        // The cluster slot's copy of the accounts epoch is missing: seed it with the global one.
        args[EPOCH_SEED_ARG] = await epochs.current();
      } else {
        // The month counter is missing (new month, or Redis restarted empty): seed it from durable usage.
        args[SEED_ARG] = String(await ctx.durableUsage(names.month, names.customerId, names.environment, names.monthName));
      }
      reply = await inTime.wrap(admitScript.exec(scriptKeys, args));
    }
    return reply;
  }

  return {
    async admit(request: AdmitRequest): Promise<LimitDecision> {
      const { customerId, environment, keyId, policy, now } = request;
      const month = ctx.monthAt(now);
      const names = keyNamesOf(customerId, environment, keyId, month);
      const call = nextCall(names.slot);
      const callId = call.id;
      let reply: Reply;
      try {
        reply = await runAdmit(request, call, names);
      } catch (error) {
        // Core lets this call through (fail open), so it counts: buffer it under its call id; the
        // replay counts it unless the script did land (its marker then says so).
        const buffered = ledger.buffer(customerId, environment, month, callId, 1);
        if (buffered === 'overflow-opened') {
          // Once per group and replay cycle: the outage outlasted the per-call buffer.
          ctx.warn('ratelimit.buffer_full', { customer_id: customerId, environment, month, buffered_calls: ledger.entries() });
        }
        if (error instanceof StoreTimeoutError) void releaseLease(customerId, keyId, callId);
        throw error;
      }
      const [status, gen, used, burst, nextFree, epoch, durable] = reply;
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
      const generation = String(gen);
      flush.afterAdmit(names.month, names.counter, generation);
      if (status === 'ok') {
        // The answer of nearly every request: built in one literal (issue 14, the hot path).
        ledger.confirm(customerId, environment, month, generation, monthCount, 1, Number(durable));
        replay.kick();
        let released: Promise<void> | null = null;
        return {
          allowed: true,
          reason: null,
          limit: policy.burstPerMinute,
          remaining: Math.max(0, policy.burstPerMinute - burstUsed),
          reset: Math.ceil(nextFreeAt / 1000),
          retryAfterSeconds: 0,
          monthCount,
          release: () => (released ??= releaseLease(customerId, keyId, callId)),
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
      const [used, nextFree] = await inTime.wrap(peekScript.exec([keys.burst(customerId, environment)], [String(now), WINDOW_ARG]));
      return {
        limit: policy.burstPerMinute,
        remaining: Math.max(0, policy.burstPerMinute - Number(used)),
        reset: Math.ceil(Number(nextFree) / 1000),
      };
    },

    async monthCount(customerId, environment, month) {
      try {
        const live = await inTime.wrap(ctx.redis.hget(keys.month(customerId, environment, month), 'n'));
        if (live !== null && live !== undefined) return Number(live);
      } catch (error) {
        ctx.warn('ratelimit.month_count_fallback', { customer_id: customerId, environment, month }, error);
      }
      // No live counter (or no store): durable usage plus what this instance knows is not durable yet.
      return (await accounts.getUsage(customerId, environment, month)) + ledger.pending(customerId, environment, month);
    },

    async admitPublic(ip: string, limit: number, now: number, options: SubjectWindow = {}): Promise<PublicDecision> {
      const windowMs = options.windowMs ?? BURST_WINDOW_MS;
      const window = Math.floor(now / windowMs);
      // A window of another length keeps counters of its own (their indexes count other units).
      const subject = windowMs === BURST_WINDOW_MS ? ip : `${ip}:${windowMs}`;
      const resetAt = (window + 1) * windowMs;
      const remaining = Number(
        await inTime.wrap(
          publicScript.exec(
            [keys.publicBurst(subject, window), keys.publicBurst(subject, window - 1)],
            [limit, now, windowMs, options.peek ? 0 : 1].map(String),
          ),
        ),
      );
      const reset = Math.ceil(resetAt / 1000);
      if (remaining < 0)
        return {
          allowed: false,
          limit,
          remaining: 0,
          reset,
          retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
        };
      return {
        allowed: true,
        limit,
        remaining,
        reset,
        retryAfterSeconds: 0,
      };
    },
  };
}
