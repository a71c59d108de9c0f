import { describe, expect, it } from 'vitest';
import { parseLsn } from './lsn.js';

describe('parseLsn', () => {
  it('orders WAL positions as PostgreSQL does', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/3001158')).toBe(0x3001158n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect((parseLsn('1/0') as bigint) > (parseLsn('0/FFFFFFFF') as bigint)).toBe(true);
  });

  it('answers null for anything that is not an LSN', () => {
    for (const text of [null, undefined, '', '0', 'x/1', '1/2/3', '123456789/0']) expect(parseLsn(text)).toBeNull();
  });
});
