import { describe, expect, it } from 'vitest';
import { CALLS_PER_BITMAP, markerOf, numberedCalls } from './call-markers.js';
import { limiterKeys } from './keys.js';
import { slotTag } from './slots.js';

describe('call markers', () => {
  const keys = limiterKeys('t');

  it('numbers one instance’s calls per slot and maps each to a bit of the instance’s bitmap of that slot', () => {
    const next = numberedCalls(keys, () => '0123456789abcdef-ffff-ffff');
    const bits = (slot: number, bucket: number) => `t:{${slotTag(slot)}}:calls:0123456789abcdef:${bucket}`;
    expect([next(7), next(7), next(9)]).toEqual([
      { id: '0123456789abcdef.7.0', marker: { key: bits(7, 0), bit: 0 } },
      { id: '0123456789abcdef.7.1', marker: { key: bits(7, 0), bit: 1 } },
      { id: '0123456789abcdef.9.0', marker: { key: bits(9, 0), bit: 0 } },
    ]);
    // Each call's marker is the one markerOf reads out of its id (the replay's way), across buckets.
    for (let seq = 2; seq < CALLS_PER_BITMAP + 3; seq++) {
      const call = next(7);
      if (seq % 65_537 === 0 || seq >= CALLS_PER_BITMAP - 1) expect(call.marker).toEqual(markerOf(keys, 'cus_any', call.id));
    }
    expect(markerOf(keys, 'cus_any', '0123456789abcdef.7.5')).toEqual({ key: bits(7, 0), bit: 5 });
    expect(markerOf(keys, 'cus_any', `0123456789abcdef.16383.${CALLS_PER_BITMAP + 3}`)).toEqual({ key: bits(16383, 1), bit: 3 });
  });

  it('keeps a key of its own, in the customer’s slot, for the ids a replay makes up', () => {
    expect(markerOf(keys, 'cus_1', 'overflow:4f2c')).toEqual({ key: 't:{cus_1}:call:overflow:4f2c', bit: -1 });
    expect(markerOf(keys, 'cus_1', 'lost:9a')).toEqual({ key: 't:{cus_1}:call:lost:9a', bit: -1 });
  });
});
