import { describe, expect, it } from 'vitest';
import { keptPrefixCount, PREFIX_CAP, PrefixFilter } from './prefix-filter.js';

/** Words of [a-z0-9] from a fixed seed: 4 to 20 characters. */
function wordsOf(count: number, seed: number): string[] {
  const words = new Set<string>();
  let state = seed;
  const next = () => {
    // xorshift32: exact in 32-bit integers.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  while (words.size < count) {
    const length = 4 + (next() % 17);
    let word = '';
    for (let i = 0; i < length; i++) word += 'abcdefghijklmnopqrstuvwxyz0123456789'[next() % 36];
    words.add(word);
  }
  return [...words];
}

function filterOf(words: readonly string[], maxBytes = 1 << 20): PrefixFilter {
  const filter = new PrefixFilter(
    words.reduce((sum, word) => sum + keptPrefixCount(word), 0),
    maxBytes,
  );
  for (const word of words) filter.addWord(word);
  return filter;
}

describe('PrefixFilter', () => {
  const words = wordsOf(20_000, 7);
  const filter = filterOf(words);

  it('never says "absent" for a prefix of a word it holds, nor for a word it holds, however long', () => {
    for (const word of words) {
      for (let length = 5; length <= word.length; length++) expect(filter.mayPrefix(word.slice(0, length)), word.slice(0, length)).toBe(true);
      expect(filter.mayPrefix(`${word}`)).toBe(true);
    }
    // A query word longer than the cap is looked up by its first PREFIX_CAP characters.
    const long = words.find((word) => word.length > PREFIX_CAP) as string;
    expect(filter.mayPrefix(`${long.slice(0, PREFIX_CAP)}zzzzzzzz`)).toBe(true);
  });

  it('says "absent" for about 99 % of words no held word starts with, at 10 bits a prefix', () => {
    const prefixes = new Set(words.flatMap((word) => Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1))));
    const others = wordsOf(20_000, 8).filter((word) => word.length >= 5 && !prefixes.has(word));
    const wronglyPresent = others.filter((word) => filter.mayPrefix(word)).length;
    expect(others.length).toBeGreaterThan(15_000);
    expect(wronglyPresent / others.length).toBeLessThan(0.02);
  });

  it('knows nothing of words shorter than 5 characters (they are never corrected)', () => {
    expect(filterOf([]).mayPrefix('abcd')).toBe(true);
    expect(filterOf([]).mayPrefix('abcde')).toBe(false);
  });

  it('stays within its bound: past it, more words are "may", never one held "absent"', () => {
    const small = filterOf(words, 4 * 1024);
    expect(small.bytes).toBeLessThanOrEqual(4 * 1024);
    for (const word of words) expect(small.mayPrefix(word)).toBe(true);
  });
});
