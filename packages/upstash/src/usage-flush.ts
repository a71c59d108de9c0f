/**
 * Durable usage from Redis's own month counters (issue 27 item 2; docs/decisions.md §8). The
 * counter is the authoritative count of a customer's month, so it is what gets made durable, by
 * whichever instance is alive: an instance that dies (`kill -9`) takes none of the calls it
 * counted with it.
 *
 * - **Which counters.** Every counter that took calls is a member of its month's "counted" set:
 *   an instance adds a counter before its first admit of it (the mark leaves in the same write,
 *   ahead of the admit) and again when the counter's generation changed (Redis lost it).
 * - **A flush**, once a minute on every instance (runJobs) for every counter of the month (and of
 *   the month before, in its first days), claims the counter's range (f, n] that is not durable
 *   (FLUSH_CLAIM_SCRIPT: one flusher at a time; a claim whose flusher died is taken over after
 *   `claimTtlMs`), writes it with Accounts.flushUsage, which adds each generation's range once
 *   however often it is repeated, then moves `f` (FLUSH_COMMIT_SCRIPT).
 * So PostgreSQL holds every call Redis counted at most a minute (plus a flush) after it, while
 * any instance lives. Left open: a flush claimed just before Redis restarted empty and written to
 * PostgreSQL after an instance read that generation's durable mark (usage-replay.ts) is counted
 * twice; the window is the few milliseconds between a claim and its write.
 */
import { type Environment, monthOf } from '@catalogue/core';
import type { LimiterContext } from './limiter-context.js';
import { FLUSH_CLAIM_SCRIPT, FLUSH_COMMIT_SCRIPT, MARK_DIRTY_SCRIPT, MEMBERS_SCRIPT } from './scripts.js';

/** A flush claim older than this is taken over (its flusher died between claim and commit). */
export const FLUSH_CLAIM_TTL_MS = 30_000;
/** The month before is flushed too in a month's first days (calls of its last minutes, late replays). */
const PREVIOUS_MONTH_DAYS_MS = 3 * 24 * 3_600_000;
/** Counters flushed at once. */
const FLUSH_PARALLEL = 16;
/** Counters whose mark this instance remembers; past it, marks are simply sent again (SADD is idempotent). */
const MAX_REMEMBERED_MARKS = 10_000;

type Claim = [string, string, number?, number?];

export interface CounterRef {
  customerId: string;
  environment: Environment;
  month: string;
}

export interface UsageFlush {
  /** Before an admit of `monthKey`: marks the counter as counted unless this instance did so already. */
  beforeAdmit(monthKey: string, counter: CounterRef): void;
  /** After an admit answered the counter's generation: marks it again if the counter was re-seeded. */
  afterAdmit(monthKey: string, counter: CounterRef, gen: string): void;
  /** Every counted counter of the month of `now` (and the month before in its first days), and this instance's own. */
  flushAll(now: number): Promise<void>;
  /** One counter's range that is not durable yet, if no other instance is flushing it. */
  flushCounter(counter: CounterRef): Promise<void>;
}

export function createUsageFlush(ctx: LimiterContext, claimTtlMs = FLUSH_CLAIM_TTL_MS): UsageFlush {
  const { keys, ledger, accounts, clock } = ctx;
  const markScript = ctx.script<number>(MARK_DIRTY_SCRIPT);
  const membersScript = ctx.script<string[]>(MEMBERS_SCRIPT);
  const claimScript = ctx.script<Claim>(FLUSH_CLAIM_SCRIPT);
  const commitScript = ctx.script<number>(FLUSH_COMMIT_SCRIPT);
  const claimTtlArg = String(claimTtlMs);
  /** Counter key → the generation it was marked under ('' before the first answer). */
  const marked = new Map<string, string>();

  const memberOf = (counter: CounterRef) => `${counter.environment}:${counter.customerId}`;

  function mark(monthKey: string, counter: CounterRef): void {
    if (marked.size >= MAX_REMEMBERED_MARKS) marked.clear();
    const sent = markScript.exec([keys.counted(counter.month)], [memberOf(counter), String(ctx.monthTtlMs(counter.month, clock.now()))]);
    ctx.inBackgroundTime.wrap(sent).catch((error: unknown) => {
      // Sent again with the next admit; meanwhile this instance's own flush covers the counter.
      marked.delete(monthKey);
      ctx.warn('usage.mark_failed', { customer_id: counter.customerId, environment: counter.environment, month: counter.month }, error);
    });
  }

  async function flushCounter(counter: CounterRef): Promise<void> {
    const monthKey = keys.month(counter.customerId, counter.environment, counter.month);
    const claim = await ctx.inBackgroundTime.wrap(claimScript.exec([monthKey], [claimTtlArg]));
    if (claim[0] !== 'claim') return;
    const generation = String(claim[1]);
    const from = Number(claim[2]);
    const upto = Number(claim[3]);
    await accounts.flushUsage({ ...counter, generation, from, upto, at: new Date(clock.now()) });
    await ctx.inBackgroundTime.wrap(commitScript.exec([monthKey], [generation, String(upto)]));
    // This instance's calls of that generation up to `upto` are durable now.
    ledger.markDurable(counter.customerId, counter.environment, counter.month, generation, upto);
  }

  async function countedIn(month: string): Promise<CounterRef[]> {
    const members = await ctx.inBackgroundTime.wrap(membersScript.exec([keys.counted(month)], []));
    const counters: CounterRef[] = [];
    for (const member of members ?? []) {
      const at = member.indexOf(':');
      const environment = member.slice(0, at);
      if (environment !== 'live' && environment !== 'test') continue;
      counters.push({ customerId: member.slice(at + 1), environment, month });
    }
    return counters;
  }

  return {
    beforeAdmit(monthKey, counter) {
      if (marked.has(monthKey)) return;
      marked.set(monthKey, '');
      mark(monthKey, counter);
    },

    afterAdmit(monthKey, counter, gen) {
      const before = marked.get(monthKey);
      if (before === gen) return;
      marked.set(monthKey, gen);
      // '' was marked just before this admit; another generation means the set may be gone too.
      if (before !== '' && before !== undefined) mark(monthKey, counter);
    },

    async flushAll(now) {
      const month = ctx.monthAt(now);
      const months = [month];
      const monthStart = Date.parse(`${month}-01T00:00:00Z`);
      if (now - monthStart < PREVIOUS_MONTH_DAYS_MS) months.push(monthOf(monthStart - 1));
      const counters = new Map<string, CounterRef>();
      for (const m of months) {
        try {
          for (const counter of await countedIn(m)) counters.set(`${m}\u0000${memberOf(counter)}`, counter);
        } catch (error) {
          ctx.warn('usage.flush_failed', { month: m, step: 'list' }, error);
        }
      }
      // Its own counters of any month (late replays too), whether or not the set was readable.
      for (const group of ledger.groups()) {
        counters.set(`${group.month}\u0000${memberOf(group)}`, { customerId: group.customerId, environment: group.environment, month: group.month });
      }
      const queue = [...counters.values()];
      await Promise.all(
        Array.from({ length: Math.min(FLUSH_PARALLEL, queue.length) }, async () => {
          for (let counter = queue.pop(); counter !== undefined; counter = queue.pop()) {
            try {
              await flushCounter(counter);
            } catch (error) {
              ctx.warn('usage.flush_failed', { customer_id: counter.customerId, environment: counter.environment, month: counter.month }, error);
            }
          }
        }),
      );
    },

    flushCounter,
  };
}
