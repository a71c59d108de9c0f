import { describe, expect, it } from 'vitest';
import { CALLS_PER_BITMAP, callNumbering, markerOf } from './call-markers.js';
import { limiterKeys } from './keys.js';

describe('call markers', () => {
  const keys = limiterKeys('t');

  it('numbers one instance’s calls and maps each to a bit of the instance’s bitmap', () => {
    const next = callNumbering(() => '0123456789abcdef-ffff-ffff');
    expect([next(), next()]).toEqual(['0123456789abcdef.0', '0123456789abcdef.1']);
    expect(markerOf(keys, '0123456789abcdef.5')).toEqual({ key: 't:calls:0123456789abcdef:0', bit: 5 });
    expect(markerOf(keys, `0123456789abcdef.${CALLS_PER_BITMAP + 3}`)).toEqual({ key: 't:calls:0123456789abcdef:1', bit: 3 });
  });

  it('keeps a key of its own for the ids a replay makes up', () => {
    expect(markerOf(keys, 'overflow:4f2c')).toEqual({ key: 't:call:overflow:4f2c', bit: -1 });
    expect(markerOf(keys, 'lost:9a')).toEqual({ key: 't:call:lost:9a', bit: -1 });
  });
});
