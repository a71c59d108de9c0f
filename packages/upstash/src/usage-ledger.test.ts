import { describe, expect, it } from 'vitest';
import { createUsageLedger } from './usage-ledger.js';

const MONTH = '2026-03';

function ledger(maxBufferedCalls: number) {
  let n = 0;
  return createUsageLedger({ maxBufferedCalls, newId: () => `o${++n}` });
}

describe('the outage buffer of the usage ledger', () => {
  it('keeps one entry per call up to the bound, then one overflow entry per group, losing no count', () => {
    const l = ledger(3);
    const where = Array.from({ length: 10 }, (_, i) => l.buffer('cus_a', 'live', MONTH, `call${i}`, 1));
    expect(where).toEqual(['call', 'call', 'call', 'overflow-opened', 'overflow', 'overflow', 'overflow', 'overflow', 'overflow', 'overflow']);
    l.buffer('cus_b', 'test', MONTH, 'callB', 1);
    expect(l.entries()).toBe(5); // 3 calls + an overflow entry for each of the two groups
    expect(l.pending('cus_a', 'live', MONTH)).toBe(10);
    expect(l.pending('cus_b', 'test', MONTH)).toBe(1);
    const [a] = l.groups();
    expect([...a!.unconfirmed]).toEqual([
      ['call0', 1],
      ['call1', 1],
      ['call2', 1],
      ['overflow:o1', 7],
    ]);
  });

  it('seals the overflow entry at a snapshot: later counts open a new entry, never change a replayed one', () => {
    const l = ledger(1);
    l.buffer('cus_a', 'live', MONTH, 'call0', 1);
    l.buffer('cus_a', 'live', MONTH, 'call1', 1);
    const [group] = l.groups();
    const replayed = l.snapshot(group!);
    expect(replayed).toEqual([
      ['call0', 1],
      ['overflow:o1', 1],
    ]);
    // A call fails open while the replay is in flight.
    expect(l.buffer('cus_a', 'live', MONTH, 'call2', 1)).toBe('overflow-opened');
    for (const [id] of replayed) l.settle(group!, id);
    expect([...group!.unconfirmed]).toEqual([['overflow:o2', 1]]);
    expect(l.entries()).toBe(1);
    // With room again, calls get their own entries.
    l.snapshot(group!);
    l.settle(group!, 'overflow:o2');
    expect(l.buffer('cus_a', 'live', MONTH, 'call3', 1)).toBe('call');
  });
});

describe('the confirmed runs of the usage ledger', () => {
  it('keeps each call at its place in the counter until the durable mark passes it', () => {
    const l = ledger(10);
    // This instance's calls made the counter 11, 12 and 15 (other instances' calls between);
    // the counter was durable up to 10.
    for (const end of [11, 12, 15]) l.confirm('cus_a', 'live', MONTH, 'g1', end, 1, 10);
    expect(l.pending('cus_a', 'live', MONTH)).toBe(3);
    // A flush made it durable up to 12.
    l.markDurable('cus_a', 'live', MONTH, 'g1', 12);
    expect(l.pending('cus_a', 'live', MONTH)).toBe(1);
    const [group] = l.groups();
    l.prune(group!);
    expect(group!.confirmed.get('g1')?.ends).toEqual([15]);
    // A replay of 3 calls that made the counter 20.
    l.confirmIn(group!, 'g1', 20, 3, 12);
    expect(l.takeUndurable(group!)).toEqual([{ generation: 'g1', positions: [15, 18, 19, 20] }]);
    expect(l.pending('cus_a', 'live', MONTH)).toBe(0);
  });

  it('answers what a lost generation had not made durable, by PostgreSQL’s mark or the counter’s own', () => {
    const l = ledger(10);
    for (const end of [3, 4, 8, 9]) l.confirm('cus_a', 'live', MONTH, 'g1', end, 1, 2);
    l.confirm('cus_a', 'live', MONTH, 'g1', 14, 4, 2); // a replay: places 11–14
    const [group] = l.groups();
    expect(l.takeLost(group!, 'g1', 8)).toBe(5); // 9, 11, 12, 13, 14
    expect(group!.confirmed.size).toBe(0);
    for (const end of [3, 4]) l.confirm('cus_a', 'live', MONTH, 'g2', end, 1, 2);
    // No flush of g2 reached PostgreSQL: the counter's seed (2) was durable, both calls are lost.
    expect(l.takeLost(group!, 'g2', null)).toBe(2);
  });
});
