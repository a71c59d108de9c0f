import CRC32 from 'crc-32';
import { describe, expect, it } from 'vitest';
import { base62Fixed } from './base62.js';
import { generateApiKey, parseApiKey } from './key-format.js';

const good = generateApiKey('live');
const flipLast = (key: string) => key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');

describe('API key format', () => {
  it('generates keys of the documented shape that parse back', () => {
    for (const env of ['live', 'test'] as const) {
      const key = generateApiKey(env);
      expect(key).toMatch(new RegExp(`^ck_${env}_[0-9A-Za-z]{32}$`));
      expect(parseApiKey(key)).toEqual({ environment: env, displayPrefix: key.slice(0, 12) });
    }
  });

  it('generates distinct keys', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('test')));
    expect(keys.size).toBe(1000);
  });

  it.each([
    ['empty', ''],
    ['prefix only', 'ck_live_'],
    ['wrong prefix', good.replace('ck_live_', 'ck_prod_')],
    ['upper-case prefix', good.replace('ck_live_', 'CK_LIVE_')],
    ['one char short', good.slice(0, -1)],
    ['one char long', `${good}A`],
    ['non-base62 char', `${good.slice(0, 20)}-${good.slice(21)}`],
    ['bad checksum', flipLast(good)],
    ['typo in body', good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11)],
    ['leading space', ` ${good.slice(1)}`],
    ['unicode look-alike', good.replace('c', 'с')],
    ['bearer prefix', `Bearer ${good}`],
  ])('refuses %s without a store read', (_name, candidate) => {
    expect(parseApiKey(candidate)).toBeNull();
  });
});

describe('API key format: the shape is checked before the checksum', () => {
  const withChecksum = (head: string) => head + base62Fixed(CRC32.str(head) >>> 0, 6);

  it('refuses a key whose checksum is right but whose prefix or alphabet is not', () => {
    expect(parseApiKey(withChecksum(`ck_prod_${'a'.repeat(26)}`))).toBeNull();
    expect(parseApiKey(withChecksum(`ck_live_${'a'.repeat(25)}-`))).toBeNull();
    expect(parseApiKey(withChecksum(`ck_live_${'a'.repeat(26)}`))).toEqual({ environment: 'live', displayPrefix: 'ck_live_aaaa' });
    expect(parseApiKey(withChecksum(`ck_test_${'a'.repeat(26)}`))).toEqual({ environment: 'test', displayPrefix: 'ck_test_aaaa' });
  });
});
