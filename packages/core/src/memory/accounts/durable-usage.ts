/** Durable usage in memory (the DurableUsage slice; PostgreSQL's is accounts/durable-usage.ts). */
import type { DurableUsage, Environment } from '../../ports/index.js';
import { usageDay } from '../../tiers.js';
import type { AccountTables } from './tables.js';

const usageKey = (customerId: string, environment: Environment, month: string) => `${customerId}:${environment}:${month}`;
/** A month counter generation's mark: its month's key and the generation. */
const generationKey = (customerId: string, environment: Environment, month: string, generation: string) =>
  `${usageKey(customerId, environment, month)}\u0000${generation}`;

/** Adds `delta` to the month and to the day of `at` (default the store's clock). */
function addToMonth(tables: AccountTables, customerId: string, environment: Environment, month: string, delta: number, at?: Date): void {
  const k = usageKey(customerId, environment, month);
  tables.usage.set(k, (tables.usage.get(k) ?? 0) + delta);
  const days = tables.usageDays.get(k) ?? new Map<string, number>();
  const day = usageDay(month, at?.getTime() ?? tables.clock());
  days.set(day, (days.get(day) ?? 0) + delta);
  tables.usageDays.set(k, days);
}

export function durableUsage(tables: AccountTables): DurableUsage {
  const { usage, usageDays, usageFlushes, usageDirect } = tables;
  return {
    async addUsage(customerId, environment, month, delta, at) {
      addToMonth(tables, customerId, environment, month, delta, at);
    },
    async getUsage(customerId, environment, month) {
      return usage.get(usageKey(customerId, environment, month)) ?? 0;
    },
    async getDailyUsage(customerId, environment, month) {
      const days = usageDays.get(usageKey(customerId, environment, month)) ?? new Map<string, number>();
      return [...days]
        .filter(([, count]) => count > 0)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([day, count]) => ({ day, count }));
    },
    async flushUsage(flush) {
      const mark = generationKey(flush.customerId, flush.environment, flush.month, flush.generation);
      const start = Math.max(flush.from, usageFlushes.get(mark) ?? 0);
      if (flush.upto <= start) return 0;
      usageFlushes.set(mark, flush.upto);
      let direct = 0;
      for (const position of usageDirect.get(mark) ?? []) if (position > start && position <= flush.upto) direct++;
      const delta = flush.upto - start - direct;
      if (delta > 0) addToMonth(tables, flush.customerId, flush.environment, flush.month, delta, flush.at);
      return Math.max(0, delta);
    },
    async getUsageFlushed(customerId, environment, month, generation) {
      return usageFlushes.get(generationKey(customerId, environment, month, generation)) ?? null;
    },
    async addUsageDirect(direct) {
      const mark = generationKey(direct.customerId, direct.environment, direct.month, direct.generation);
      const flushed = usageFlushes.get(mark) ?? 0;
      const known = usageDirect.get(mark) ?? new Set<number>();
      usageDirect.set(mark, known);
      let added = 0;
      for (const position of direct.positions) {
        if (position <= flushed || known.has(position)) continue;
        known.add(position);
        added++;
      }
      if (added > 0) addToMonth(tables, direct.customerId, direct.environment, direct.month, added, direct.at);
      return added;
    },
  };
}
