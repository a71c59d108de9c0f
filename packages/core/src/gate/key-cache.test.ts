/** The gate's key cache (key-cache.ts): bounded in age and size, the oldest entry dropped first. */
import { describe, expect, it } from 'vitest';
import type { KeyWithCustomer } from '../ports/index.js';
import { KEY_CACHE_MAX_AGE_MS, KEY_CACHE_MAX_ENTRIES, KeyCache } from './key-cache.js';

const found = (id: string) => ({ key: { id }, customer: { id: `cust_${id}` } }) as unknown as KeyWithCustomer;

describe('KeyCache', () => {
  it('defaults to 10,000 entries of at most a minute', () => {
    const cache = new KeyCache();
    expect([cache.maxEntries, cache.maxAgeMs]).toEqual([KEY_CACHE_MAX_ENTRIES, KEY_CACHE_MAX_AGE_MS]);
    expect([KEY_CACHE_MAX_ENTRIES, KEY_CACHE_MAX_AGE_MS]).toEqual([10_000, 60_000]);
    expect(cache.lastEpoch).toBeNull();
  });

  it('answers an entry with its epoch until it is older than maxAgeMs, then forgets it', () => {
    const cache = new KeyCache(10, 1_000);
    cache.set('h1', found('a'), 'e1', 5_000);
    expect(cache.get('h1', 5_000)).toEqual({ found: found('a'), epoch: 'e1', storedAt: 5_000 });
    expect(cache.get('h1', 6_000)?.epoch).toBe('e1');
    expect(cache.size).toBe(1);
    expect(cache.get('h1', 6_001)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get('h1', 5_000)).toBeUndefined();
    expect(cache.get('never', 0)).toBeUndefined();
  });

  it('drops the oldest entry to make room, but not to replace an entry it holds', () => {
    const cache = new KeyCache(2, 60_000);
    cache.set('a', found('a'), 'e', 1);
    cache.set('b', found('b'), 'e', 2);
    cache.set('b', found('b2'), 'e2', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 3)).toBeDefined();
    expect(cache.get('b', 3)?.found).toEqual(found('b2'));
    cache.set('c', found('c'), 'e', 4);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 4)).toBeUndefined();
    expect(cache.get('b', 4)).toBeDefined();
    expect(cache.get('c', 4)).toBeDefined();
  });

  it('delete drops one entry; clear drops all and forgets the last epoch', () => {
    const cache = new KeyCache();
    cache.set('a', found('a'), 'e', 1);
    cache.set('b', found('b'), 'e', 1);
    cache.lastEpoch = 'e';
    cache.delete('a');
    expect([cache.get('a', 1), cache.size]).toEqual([undefined, 1]);
    cache.clear();
    expect([cache.size, cache.lastEpoch]).toEqual([0, null]);
  });
});
