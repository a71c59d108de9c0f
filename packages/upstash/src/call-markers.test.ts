import { describe, expect, it } from 'vitest';
import { CALLS_PER_BITMAP, markerOf, numberedCalls } from './call-markers.js';
import { limiterKeys } from './keys.js';

describe('call markers', () => {
  const keys = limiterKeys('t');

  it('numbers one instance’s calls and maps each to a bit of the instance’s bitmap', () => {
    const next = numberedCalls(keys, () => '0123456789abcdef-ffff-ffff');
    expect([next(), next()]).toEqual([
      { id: '0123456789abcdef.0', marker: { key: 't:calls:0123456789abcdef:0', bit: 0 } },
      { id: '0123456789abcdef.1', marker: { key: 't:calls:0123456789abcdef:0', bit: 1 } },
    ]);
    // Each call's marker is the one markerOf reads out of its id (the replay's way), across buckets.
    for (let seq = 2; seq < CALLS_PER_BITMAP + 3; seq++) {
      const call = next();
      if (seq % 65_537 === 0 || seq >= CALLS_PER_BITMAP - 1) expect(call.marker).toEqual(markerOf(keys, call.id));
    }
    expect(markerOf(keys, '0123456789abcdef.5')).toEqual({ key: 't:calls:0123456789abcdef:0', bit: 5 });
    expect(markerOf(keys, `0123456789abcdef.${CALLS_PER_BITMAP + 3}`)).toEqual({ key: 't:calls:0123456789abcdef:1', bit: 3 });
  });

  it('keeps a key of its own for the ids a replay makes up', () => {
    expect(markerOf(keys, 'overflow:4f2c')).toEqual({ key: 't:call:overflow:4f2c', bit: -1 });
    expect(markerOf(keys, 'lost:9a')).toEqual({ key: 't:call:lost:9a', bit: -1 });
  });
});
