import { describe, expect, it } from 'vitest';
import { Tally } from './tally.js';

/** A Tally whose clock reads `elapsedMs` after it started. */
function tallyAfter(elapsedMs: number, rows: Array<['bandcamp' | 'festivals' | 'artists' | 'masters', number]>): Tally {
  let now = 1_000;
  const tally = new Tally(() => now);
  for (const [table, n] of rows) tally.add(table, n);
  now += elapsedMs;
  return tally;
}

describe('the import summary line (issue 30 item 12)', () => {
  it('gives a small file its true rate, not a rounded 0', () => {
    expect(tallyAfter(10_400, [['bandcamp', 2]]).summary()).toBe('bandcamp 2 — 2 records in 10.4 s (0.19 records/s)');
    expect(tallyAfter(2_000, [['festivals', 9]]).summary()).toBe('festivals 9 — 9 records in 2.0 s (4.5 records/s)');
  });

  it('keeps whole rates for large imports, and claims no rate over no time or no records', () => {
    expect(
      tallyAfter(1_200, [
        ['artists', 1000],
        ['masters', 1000],
      ]).summary(),
    ).toBe('artists 1,000 · masters 1,000 — 2,000 records in 1.2 s (1,667 records/s)');
    expect(tallyAfter(40, [['bandcamp', 3]]).summary()).toBe('bandcamp 3 — 3 records in under 0.1 s');
    expect(tallyAfter(3_000, []).summary()).toBe('0 records in 3.0 s');
  });
});
