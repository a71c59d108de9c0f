import { describe, expect, it } from 'vitest';
import type { Environment } from '../ports/index.js';
import { type DurableMonths, MonthCounts } from './month-counts.js';

/** Durable usage in a map, that fails the calls a test tells it to. */
function flakyDurable() {
  const rows = new Map<string, number>();
  const failing = { add: 0, get: 0 };
  const durable: DurableMonths = {
    async addUsage(customerId: string, environment: Environment, month: string, delta: number) {
      if (failing.add > 0 && failing.add--) throw new Error('database away');
      const key = `${customerId}/${environment}/${month}`;
      rows.set(key, (rows.get(key) ?? 0) + delta);
    },
    async getUsage(customerId: string, environment: Environment, month: string) {
      if (failing.get > 0 && failing.get--) throw new Error('database away');
      return rows.get(`${customerId}/${environment}/${month}`) ?? 0;
    },
  };
  return { durable, rows, failing };
}

describe('MonthCounts on durable usage', () => {
  it('seeds from durable usage, flushes what it added, and loses nothing when the database fails', async () => {
    const { durable, rows, failing } = flakyDurable();
    rows.set('c/live/2026-11', 40);
    const counts = new MonthCounts(durable, null);
    const state = counts.create('c', 'live', '2026-11');
    await counts.seed(state);
    expect(state.count).toBe(40);
    counts.add(state);
    counts.add(state);

    failing.add = 1;
    await counts.flush('2026-11');
    expect(rows.get('c/live/2026-11')).toBe(40);
    expect(state.unflushed).toBe(2);

    counts.add(state);
    await counts.flush('2026-11');
    expect(rows.get('c/live/2026-11')).toBe(43);
    expect(state).toMatchObject({ count: 43, unflushed: 0 });
  });

  it('counts from zero when the seed fails, and the next flush writes the calls and re-reads the month', async () => {
    const { durable, rows, failing } = flakyDurable();
    rows.set('c/test/2026-11', 10);
    const counts = new MonthCounts(durable, null);
    const state = counts.create('c', 'test', '2026-11');
    failing.get = 1;
    await counts.seed(state);
    expect(state).toMatchObject({ count: 0, seeded: true, stale: true });
    counts.add(state);
    await counts.flush('2026-11');
    expect(rows.get('c/test/2026-11')).toBe(11);
    expect(state).toMatchObject({ count: 11, stale: false });
  });

  it('forgets a past month once it is durable', async () => {
    const { durable } = flakyDurable();
    const forgotten: string[] = [];
    const counts = new MonthCounts(durable, null, (state) => forgotten.push(state.month));
    const october = counts.create('c', 'live', '2026-10');
    await counts.seed(october);
    counts.add(october);
    await counts.flush('2026-11');
    expect(forgotten).toEqual(['2026-10']);
  });
});
