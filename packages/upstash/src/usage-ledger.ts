/**
 * Calls this instance admitted that are not known to be in durable usage yet, grouped per
 * customer + environment + month. A count is either
 * - confirmed: counted in the Redis month counter of a known generation, at a known place in it
 *   (a run: the counter's value after the call, and how many calls end there). Durable usage is
 *   flushed from the counter itself by whichever instance is alive (usage-flush.ts), so a
 *   confirmed run is only kept until the counter's durable mark `f` passes it: if Redis loses the
 *   counter first (a restart), the runs past the old generation's durable mark are counted
 *   again (usage-sync.ts); or
 * - unconfirmed: not known to be in the live counter (admitted while the store failed, or lost
 *   because Redis restarted empty), kept under an id the replay script counts at most once.
 *
 * The outage buffer is bounded. Up to `maxBufferedCalls` failed calls are kept one entry per
 * call id: if the store did apply a call whose reply was lost, its marker makes the replay skip
 * it. Past the bound (a long outage under load), further calls of a group share one overflow
 * entry, so memory stays constant. The price: a call in the overflow that the store did apply
 * is counted twice. While the store is down nothing applies, so in practice that is only a
 * call whose reply was late.
 */
import type { Environment } from '@catalogue/core';

/** A generation's confirmed calls: run i is `counts[i]` calls ending at the counter value `ends[i]`. */
export class Runs {
  readonly ends: number[] = [];
  readonly counts: number[] = [];
  /** The highest durable mark `f` the counter answered: calls up to it are in PostgreSQL. */
  durable = 0;

  /** Calls of these runs past the counter value `mark`. */
  past(mark: number): number {
    let total = 0;
    for (let i = 0; i < this.ends.length; i++) total += Math.max(0, Math.min(this.counts[i] as number, (this.ends[i] as number) - mark));
    return total;
  }

  /** Drops the runs the durable mark has passed. */
  compact(): void {
    let kept = 0;
    for (let i = 0; i < this.ends.length; i++) {
      if ((this.ends[i] as number) <= this.durable) continue;
      this.ends[kept] = this.ends[i] as number;
      this.counts[kept] = this.counts[i] as number;
      kept++;
    }
    this.ends.length = kept;
    this.counts.length = kept;
  }
}

/** Runs are compacted on the admit path only once this many have piled up (runJobs compacts too). */
const COMPACT_AT = 4_096;

export interface LedgerGroup {
  readonly customerId: string;
  readonly environment: Environment;
  readonly month: string;
  readonly unconfirmed: Map<string, number>;
  /** Confirmed runs per counter generation. */
  readonly confirmed: Map<string, Runs>;
  /** The overflow entry new counts of this group go to, once the buffer is full. */
  overflowId: string | null;
}

export interface UsageLedgerOptions {
  /** Per-call entries kept before counts go to a group's overflow entry. */
  maxBufferedCalls: number;
  /** Unique ids for overflow entries (each is counted at most once by the replay). */
  newId(): string;
}

/** Where `buffer` put a count. `overflow-opened`: the first count of a new overflow entry. */
export type Buffered = 'call' | 'overflow' | 'overflow-opened';

export interface UsageLedger {
  /** `count` calls counted under `gen`, the last of them making the counter `end`; `durable` is the counter's `f`. */
  confirm(customerId: string, environment: Environment, month: string, gen: string, end: number, count: number, durable: number): void;
  /** A flush made a generation durable up to `upto`: this instance's runs up to it leave (no group is made for it). */
  markDurable(customerId: string, environment: Environment, month: string, gen: string, upto: number): void;
  /** The same for a group in hand (a replay's answer). */
  confirmIn(group: LedgerGroup, gen: string, end: number, count: number, durable: number): void;
  /** A call that failed open, under its own call id (or the group's overflow entry when full). */
  buffer(customerId: string, environment: Environment, month: string, id: string, count: number): Buffered;
  /** A count under an id of its own, whatever the bound (a lost generation's confirmed count). */
  rebuffer(group: LedgerGroup, id: string, count: number): void;
  /**
   * The unconfirmed entries of a group, to replay. Seals the group's overflow entry first:
   * counts that arrive during the replay open a new one instead of changing a replayed entry.
   */
  snapshot(group: LedgerGroup): Array<[string, number]>;
  /** A replayed entry is in the counter now: drop it. */
  settle(group: LedgerGroup, id: string): void;
  groups(): LedgerGroup[];
  /** Drops confirmed runs that are durable, and the group once it holds nothing any more. */
  prune(group: LedgerGroup): void;
  /** Takes the unconfirmed counts of a group out of the ledger and answers their sum. */
  drainUnconfirmed(group: LedgerGroup): number;
  /**
   * Takes a lost generation's runs out of the group and answers how many of their calls were not
   * durable: those past `durableMark`, how far PostgreSQL holds that generation (null: none of it).
   */
  takeLost(group: LedgerGroup, gen: string, durableMark: number | null): number;
  /**
   * Takes every confirmed run of a group out of the ledger and answers, per generation, the
   * counter places of its calls not known to be durable (for Accounts.addUsageDirect).
   */
  takeUndurable(group: LedgerGroup): Array<{ generation: string; positions: number[] }>;
  /** Calls of a group not known to be in durable usage. */
  pending(customerId: string, environment: Environment, month: string): number;
  hasUnconfirmed(): boolean;
  /** Unconfirmed entries held, over all groups (bounded by maxBufferedCalls + overflow entries). */
  entries(): number;
}

export function createUsageLedger(options: UsageLedgerOptions): UsageLedger {
  const groups = new Map<string, LedgerGroup>();
  const groupKey = (customerId: string, environment: Environment, month: string) => `${customerId}\u0000${environment}\u0000${month}`;
  let entries = 0;

  function groupOf(customerId: string, environment: Environment, month: string): LedgerGroup {
    const key = groupKey(customerId, environment, month);
    let group = groups.get(key);
    if (!group) {
      group = { customerId, environment, month, unconfirmed: new Map(), confirmed: new Map(), overflowId: null };
      groups.set(key, group);
    }
    return group;
  }

  function add(group: LedgerGroup, id: string, count: number): void {
    const before = group.unconfirmed.get(id);
    if (before === undefined) entries++;
    group.unconfirmed.set(id, (before ?? 0) + count);
  }

  const sum = (m: Map<string, number>) => {
    let total = 0;
    for (const v of m.values()) total += v;
    return total;
  };

  function confirmIn(group: LedgerGroup, gen: string, end: number, count: number, durable: number): void {
    let runs = group.confirmed.get(gen);
    if (runs === undefined) {
      runs = new Runs();
      group.confirmed.set(gen, runs);
    }
    if (durable > runs.durable) runs.durable = durable;
    if (end <= runs.durable || count <= 0) return;
    runs.ends.push(end);
    runs.counts.push(count);
    if (runs.ends.length >= COMPACT_AT && (runs.ends[0] as number) <= runs.durable) runs.compact();
  }

  const notDurable = (group: LedgerGroup) => {
    let total = sum(group.unconfirmed);
    for (const runs of group.confirmed.values()) total += runs.past(runs.durable);
    return total;
  };

  return {
    confirm(customerId, environment, month, gen, end, count, durable) {
      confirmIn(groupOf(customerId, environment, month), gen, end, count, durable);
    },
    confirmIn,
    markDurable(customerId, environment, month, gen, upto) {
      const runs = groups.get(groupKey(customerId, environment, month))?.confirmed.get(gen);
      if (runs !== undefined && upto > runs.durable) runs.durable = upto;
    },
    buffer(customerId, environment, month, id, count) {
      const group = groupOf(customerId, environment, month);
      if (entries < options.maxBufferedCalls) {
        add(group, id, count);
        return 'call';
      }
      const opened = group.overflowId === null;
      if (opened) group.overflowId = `overflow:${options.newId()}`;
      add(group, group.overflowId as string, count);
      return opened ? 'overflow-opened' : 'overflow';
    },
    rebuffer(group, id, count) {
      add(group, id, count);
    },
    snapshot(group) {
      group.overflowId = null;
      return [...group.unconfirmed];
    },
    settle(group, id) {
      if (group.unconfirmed.delete(id)) entries--;
    },
    groups: () => [...groups.values()],
    prune(group) {
      for (const [gen, runs] of group.confirmed) {
        runs.compact();
        if (runs.ends.length === 0) group.confirmed.delete(gen);
      }
      if (group.unconfirmed.size === 0 && group.confirmed.size === 0) groups.delete(groupKey(group.customerId, group.environment, group.month));
    },
    drainUnconfirmed(group) {
      const total = sum(group.unconfirmed);
      entries -= group.unconfirmed.size;
      group.unconfirmed.clear();
      group.overflowId = null;
      return total;
    },
    takeLost(group, gen, durableMark) {
      const runs = group.confirmed.get(gen);
      if (runs === undefined) return 0;
      group.confirmed.delete(gen);
      // The counter's own mark is durable too (it moves only after PostgreSQL took the range).
      return runs.past(Math.max(durableMark ?? 0, runs.durable));
    },
    takeUndurable(group) {
      const taken: Array<{ generation: string; positions: number[] }> = [];
      for (const [generation, runs] of group.confirmed) {
        const positions: number[] = [];
        for (let i = 0; i < runs.ends.length; i++) {
          const end = runs.ends[i] as number;
          for (let place = Math.max(end - (runs.counts[i] as number), runs.durable) + 1; place <= end; place++) positions.push(place);
        }
        if (positions.length > 0) taken.push({ generation, positions });
      }
      group.confirmed.clear();
      return taken;
    },
    pending(customerId, environment, month) {
      const group = groups.get(groupKey(customerId, environment, month));
      return group ? notDurable(group) : 0;
    },
    hasUnconfirmed() {
      for (const group of groups.values()) if (group.unconfirmed.size > 0) return true;
      return false;
    },
    entries: () => entries,
  };
}
