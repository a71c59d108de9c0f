import { describe, expect, it } from 'vitest';
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
