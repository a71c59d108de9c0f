/**
 * Calls this instance admitted that are not yet in durable usage, grouped per customer +
 * environment + month. A count is either
 * - confirmed: counted in the Redis month counter of a known generation, or
 * - unconfirmed: not known to be in the live counter (admitted while the store failed, or lost
 *   because Redis restarted empty), kept under an id the replay script counts at most once.
 * Only confirmed counts of the counter's current generation are flushed to durable usage, so
 * a counter re-seeded from durable usage never receives the same call twice.
 */
import type { Environment } from '@catalogue/core';

export interface LedgerGroup {
  readonly customerId: string;
  readonly environment: Environment;
  readonly month: string;
  readonly unconfirmed: Map<string, number>;
  readonly confirmed: Map<string, number>;
}

export interface UsageLedger {
  confirm(customerId: string, environment: Environment, month: string, gen: string, count: number): void;
  buffer(customerId: string, environment: Environment, month: string, id: string, count: number): void;
  groups(): LedgerGroup[];
  /** Drops a group that holds nothing any more. */
  prune(group: LedgerGroup): void;
  /** Calls of a group not yet in durable usage. */
  pending(customerId: string, environment: Environment, month: string): number;
  hasUnconfirmed(): boolean;
}

export function createUsageLedger(): UsageLedger {
  const groups = new Map<string, LedgerGroup>();
  const groupKey = (customerId: string, environment: Environment, month: string) => `${customerId}\u0000${environment}\u0000${month}`;

  function groupOf(customerId: string, environment: Environment, month: string): LedgerGroup {
    const key = groupKey(customerId, environment, month);
    let group = groups.get(key);
    if (!group) {
      group = {
        customerId,
        environment,
        month,
        unconfirmed: new Map(),
        confirmed: new Map(),
      };
      groups.set(key, group);
    }
    return group;
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
      group.unconfirmed.set(id, (group.unconfirmed.get(id) ?? 0) + count);
    },
    groups: () => [...groups.values()],
    prune(group) {
      if (group.unconfirmed.size === 0 && group.confirmed.size === 0) groups.delete(groupKey(group.customerId, group.environment, group.month));
    },
    pending(customerId, environment, month) {
      const group = groups.get(groupKey(customerId, environment, month));
      return group ? sum(group.unconfirmed) + sum(group.confirmed) : 0;
    },
    hasUnconfirmed() {
      for (const group of groups.values()) if (group.unconfirmed.size > 0) return true;
      return false;
    },
  };
}
