/** Request and search ids: ULIDs from pooled crypto randomness (request-id.ts). */
import { decodeTime, isValid } from 'ulidx';
import { describe, expect, it } from 'vitest';
import { newRequestId, ulidAt } from './request-id.js';

describe('ids from pooled randomness', () => {
  it('ulidAt encodes the time it is given, with a random part that does not repeat', () => {
    const time = Date.UTC(2026, 10, 26, 17, 40);
    const ids = Array.from({ length: 40_000 }, () => ulidAt(time));
    for (const id of ids.slice(0, 100)) {
      expect(isValid(id)).toBe(true);
      expect(decodeTime(id)).toBe(time);
    }
    // 40,000 ids cross the pool's refill (16,384 values, 16 per id) twice.
    expect(new Set(ids).size).toBe(ids.length);
    // Every character of the random part is used: the pool's values spread over the alphabet.
    expect(new Set(ids.map((id) => id[20])).size).toBe(32);
  });

  it('request ids sort in the order they were made', () => {
    const ids = Array.from({ length: 5_000 }, () => newRequestId());
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => isValid(id))).toBe(true);
  });
});
