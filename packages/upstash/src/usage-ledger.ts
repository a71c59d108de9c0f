/**
 * Calls this instance admitted that are not yet in durable usage, grouped per customer +
 * environment + month. A count is either
 * - confirmed: counted in the Redis month counter of a known generation, or
 * - unconfirmed: not known to be in the live counter (admitted while the store failed, or lost
 *   because Redis restarted empty), kept under an id the replay script counts at most once.
 * Only confirmed counts of the counter's current generation are flushed to durable usage, so
 * a counter re-seeded from durable usage never receives the same call twice.
 *
 * The outage buffer is bounded. Up to `maxBufferedCalls` failed calls are kept one entry per
 * call id: if the store did apply a call whose reply was lost, its marker makes the replay skip
 * it. Past the bound (a long outage under load), further calls of a group share one overflow
 * entry, so memory stays constant. The price: a call in the overflow that the store did apply
 * is counted twice. While the store is down nothing applies, so in practice that is only a
 * call whose reply was late.
 */
import type { Environment } from '@catalogue/core';

export interface LedgerGroup {
  readonly customerId: string;
  readonly environment: Environment;
  readonly month: string;
  readonly unconfirmed: Map<string, number>;
  readonly confirmed: Map<string, number>;
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
  confirm(customerId: string, environment: Environment, month: string, gen: string, count: number): void;
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
  /** Drops a group that holds nothing any more. */
  prune(group: LedgerGroup): void;
  /** Takes every count of a group out of the ledger (confirmed or not) and answers their sum. */
  drain(group: LedgerGroup): number;
  /** Calls of a group not yet in durable usage. */
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

  return {
    confirm(customerId, environment, month, gen, count) {
      const group = groupOf(customerId, environment, month);
      group.confirmed.set(gen, (group.confirmed.get(gen) ?? 0) + count);
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
      if (group.unconfirmed.size === 0 && group.confirmed.size === 0) groups.delete(groupKey(group.customerId, group.environment, group.month));
    },
    drain(group) {
      const total = sum(group.unconfirmed) + sum(group.confirmed);
      entries -= group.unconfirmed.size;
      group.unconfirmed.clear();
      group.confirmed.clear();
      group.overflowId = null;
      return total;
    },
    pending(customerId, environment, month) {
      const group = groups.get(groupKey(customerId, environment, month));
      return group ? sum(group.unconfirmed) + sum(group.confirmed) : 0;
    },
    hasUnconfirmed() {
      for (const group of groups.values()) if (group.unconfirmed.size > 0) return true;
      return false;
    },
    entries: () => entries,
  };
}
