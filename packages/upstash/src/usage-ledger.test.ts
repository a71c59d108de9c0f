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
