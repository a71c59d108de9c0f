import { describe, expect, it } from 'vitest';
import { SeenSlugBases } from './seen-slug-bases.js';

describe('SeenSlugBases', () => {
  it('never misses a base it was told, and rarely claims one it was not', () => {
    const bases = new SeenSlugBases();
    const told = Array.from({ length: 200_000 }, (_, i) => `artist-${i}-ümlaut`);
    // Told once each: a false "seen" is rare while the filter fills (about one in this run).
    expect(told.filter((base) => bases.seen(base)).length).toBeLessThan(10);
    // Told again: every one is seen (no false "not seen", ever).
    expect(told.filter((base) => !bases.seen(base))).toEqual([]);
    const falseSeen = Array.from({ length: 200_000 }, (_, i) => `label-${i}`).filter((base) => bases.seen(base)).length;
    // 3 hashes over 2^25 bits holding 200,000 to 400,000 bases: under 0.01 % false "seen".
    expect(falseSeen).toBeLessThan(50);
  });
});
