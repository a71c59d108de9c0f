/**
 * Calls the month counter does not hold, counted into it (docs/decisions.md §8): calls admitted
 * while the store failed (buffered under their call ids: a call the store did apply left a
 * marker, so it is not counted twice), and calls a counter lost when Redis restarted empty (its
 * generation changed): those past the old generation's durable mark in PostgreSQL are counted
 * again under the new one. The counter is then made durable by usage-flush.ts.
 */
import { markerOf } from './call-markers.js';
import type { LimiterContext } from './limiter-context.js';
import { REPLAY_SCRIPT } from './scripts.js';
import { CALL_MARKER_TTL_MS } from './timings.js';
import type { LedgerGroup } from './usage-ledger.js';

/** Markers per replay script call. */
const REPLAY_CHUNK = 500;

type Reply = Array<string | number | null>;

export interface UsageReplay {
  /** Replays every group (one sync at a time). */
  sync(): Promise<void>;
  /** The store answered again: replay what was buffered, off the response path. */
  kick(): void;
  /** One group: replay its buffered calls and recount what a lost generation did not make durable. */
  syncGroup(group: LedgerGroup): Promise<void>;
  /** Settles once the sync in progress (if any) has. */
  idle(): Promise<void>;
}

export function createUsageReplay(ctx: LimiterContext): UsageReplay {
  const { keys, ledger, accounts, clock } = ctx;
  const replayScript = ctx.script<Reply>(REPLAY_SCRIPT);

  async function replayGroup(group: LedgerGroup): Promise<string> {
    const monthKey = keys.month(group.customerId, group.environment, group.month);
    const entries = ledger.snapshot(group);
    let gen: string | null = null;
    // With nothing to replay the script still answers the counter's generation (and seeds it).
    for (let i = 0; i === 0 || i < entries.length; i += REPLAY_CHUNK) {
      const chunk = entries.slice(i, i + REPLAY_CHUNK);
      const markers = chunk.map(([id]) => markerOf(keys, group.customerId, id));
      const scriptKeys = [monthKey, ...markers.map((marker) => marker.key)];
      const args = (seed: string) =>
        [
          seed,
          `g${ctx.newId()}`,
          ctx.monthTtlMs(group.month, clock.now()),
          CALL_MARKER_TTL_MS,
          ...chunk.flatMap(([, count], j) => [count, markers[j]?.bit ?? -1]),
        ].map(String);
      let reply = await ctx.inBackgroundTime.wrap(replayScript.exec(scriptKeys, args('')));
      if (reply[0] === 'seed') {
        const durable = await ctx.durableUsage(monthKey, group.customerId, group.environment, group.month);
        reply = await ctx.inBackgroundTime.wrap(replayScript.exec(scriptKeys, args(String(durable))));
      }
      if (reply[0] !== 'ok') throw new Error('month counter could not be seeded for replay');
      const [, replyGen, count, added, durable] = reply;
      gen = String(replyGen);
      for (const [id] of chunk) ledger.settle(group, id);
      ledger.confirmIn(group, gen, Number(count), Number(added), Number(durable));
    }
    return gen as string;
  }

  async function syncGroup(group: LedgerGroup): Promise<void> {
    const gen = await replayGroup(group);
    // Runs confirmed under another generation were in a counter Redis lost: what of them its
    // flushes had not made durable is counted again (the new counter was seeded from durable usage).
    let lost = 0;
    for (const oldGen of [...group.confirmed.keys()]) {
      if (oldGen === gen) continue;
      const durableMark = await accounts.getUsageFlushed(group.customerId, group.environment, group.month, oldGen);
      const count = ledger.takeLost(group, oldGen, durableMark);
      if (count > 0) {
        ledger.rebuffer(group, `lost:${ctx.newId()}`, count);
        lost += count;
      }
    }
    if (lost > 0) await replayGroup(group);
  }

  async function syncAll(): Promise<void> {
    for (const group of ledger.groups()) {
      try {
        await syncGroup(group);
      } catch (error) {
        ctx.warn('ratelimit.sync_failed', { customer_id: group.customerId, environment: group.environment, month: group.month }, error);
      } finally {
        ledger.prune(group);
      }
    }
  }

  // One sync at a time: two replays of the same group must not interleave.
  let syncing: Promise<void> = Promise.resolve();
  let kicked = false;
  function sync(): Promise<void> {
    const run = syncing.then(syncAll);
    syncing = run.catch(() => {});
    return run;
  }

  return {
    sync,
    kick() {
      if (kicked || !ledger.hasUnconfirmed()) return;
      kicked = true;
      void sync().finally(() => {
        kicked = false;
      });
    },
    syncGroup,
    idle: () => syncing,
  };
}
