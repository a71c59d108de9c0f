/**
 * Beacon tokens (beacon-token.ts): a token verifies only as issued, for its search and key,
 * under its secret, until it expires; SECRET_KEY decodes from hex or base64 of 32+ bytes.
 */
import { describe, expect, it } from 'vitest';
import { BEACON_TOKEN_TTL_MS, beaconSignerFor, createBeaconSigner, decodeSecret } from './beacon-token.js';

const SECRET = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const SEARCH = 'srch_01HZY8T4Q9X6W5V3R2P1N0M7KJ';
const KEY = 'key_01HZY8T4Q9X6W5V3R2P1N0M7KJ';
const NOW = Date.UTC(2026, 2, 10, 12, 0, 0, 250);

describe('decodeSecret', () => {
  it('reads hex, upper or lower case', () => {
    expect(decodeSecret('00ff'.repeat(16))).toEqual(Uint8Array.from({ length: 32 }, (_, i) => (i % 2 ? 255 : 0)));
    expect(decodeSecret(` ${'0A'.repeat(32)}\n`)).toEqual(new Uint8Array(32).fill(10));
  });

  it('reads base64 in either alphabet, with or without padding', () => {
    const bytes = Uint8Array.from({ length: 33 }, (_, i) => 250 + (i % 6));
    const std = Buffer.from(bytes).toString('base64');
    expect(std).toMatch(/[+/]/);
    expect(decodeSecret(std)).toEqual(bytes);
    expect(decodeSecret(Buffer.from(bytes).toString('base64url'))).toEqual(bytes);
    const padded = Buffer.from(bytes.subarray(0, 32)).toString('base64');
    expect(padded.endsWith('=')).toBe(true);
    expect(decodeSecret(padded)).toEqual(bytes.subarray(0, 32));
    expect(decodeSecret(padded.replace(/=+$/, ''))).toEqual(bytes.subarray(0, 32));
  });

  it('refuses what is neither, and fewer than 32 bytes, saying how many', () => {
    expect(() => decodeSecret('not a secret!')).toThrow('SECRET_KEY must be hex or base64');
    expect(() => decodeSecret(`!${'a'.repeat(64)}`)).toThrow(new Error('SECRET_KEY must be hex or base64'));
    expect(() => decodeSecret('ab'.repeat(31))).toThrow('SECRET_KEY must hold at least 32 bytes; it holds 31');
    expect(() => decodeSecret(Buffer.alloc(31).toString('base64'))).toThrow('it holds 31');
    // Odd-length hex is not hex: read as base64 instead (63 characters, padded to 64 → 47 bytes).
    expect(decodeSecret('a'.repeat(63))).toHaveLength(47);
    expect(decodeSecret('a'.repeat(64))).toHaveLength(32);
  });
});

describe('createBeaconSigner', () => {
  const signer = createBeaconSigner(SECRET);

  it('issues bt1.<search>.<key>.<expiry s>.<43-character mac> valid for 30 minutes', () => {
    const token = signer.issue(SEARCH, KEY, NOW);
    const expires = Math.floor((NOW + BEACON_TOKEN_TTL_MS) / 1000);
    expect(token).toMatch(new RegExp(`^bt1\\.${SEARCH}\\.${KEY}\\.${expires}\\.[A-Za-z0-9_-]{43}$`));
    expect(BEACON_TOKEN_TTL_MS).toBe(1_800_000);
    expect(signer.verify(token, NOW)).toEqual({ searchId: SEARCH, keyId: KEY, expiresAt: expires * 1000 });
    expect(signer.verify(token, expires * 1000 - 1)).not.toBeNull();
    expect(signer.verify(token, expires * 1000)).toBeNull();
  });

  it('the same claims sign alike; another secret or another search signs differently', () => {
    expect(signer.issue(SEARCH, KEY, NOW)).toBe(createBeaconSigner(SECRET).issue(SEARCH, KEY, NOW));
    expect(createBeaconSigner(OTHER).issue(SEARCH, KEY, NOW)).not.toBe(signer.issue(SEARCH, KEY, NOW));
    expect(createBeaconSigner(OTHER).verify(signer.issue(SEARCH, KEY, NOW), NOW)).toBeNull();
  });

  it('refuses a token with any field changed', () => {
    const token = signer.issue(SEARCH, KEY, NOW);
    const [version, search, key, expires, mac] = token.split('.') as [string, string, string, string, string];
    const variants = [
      ['bt2', search, key, expires, mac],
      [version, `${search.slice(0, -1)}A`, key, expires, mac],
      [version, search, `${key.slice(0, -1)}a`, expires, mac],
      [version, search, key, String(Number(expires) + 3600), mac],
      [version, search, key, expires, `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`],
    ];
    for (const parts of variants) expect(signer.verify(parts.join('.'), NOW), parts.join('.')).toBeNull();
  });

  it('refuses malformed tokens before checking a mac', () => {
    const token = signer.issue(SEARCH, KEY, NOW);
    const [, , , expires, mac] = token.split('.') as [string, string, string, string, string];
    // A genuine mac over fields outside their shapes is refused too.
    const forged = (search: string, key: string, exp = expires) => {
      const t = createBeaconSigner(SECRET).issue(search, key, NOW).split('.');
      return [t[0], t[1], t[2], exp, t[4]].join('.');
    };
    for (const bad of [
      '',
      `${token}.x`,
      token.split('.').slice(0, 4).join('.'),
      forged('srch_lowercase0000000000000000', KEY),
      forged(`${SEARCH}X`, KEY),
      forged('search_01HZY8T4Q9X6W5V3R2P1N0M7KJ', KEY),
      forged(SEARCH, 'key_'),
      forged(SEARCH, `key_${'a'.repeat(41)}`),
      forged(SEARCH, 'cust_abc'),
      `bt1.${SEARCH}.${KEY}.${expires}.${mac}=`,
      `bt1.${SEARCH}.${KEY}.${expires}.${mac.slice(1)}`,
      `bt1.${SEARCH}.${KEY}.${expires}.A${mac}`,
      `bt1.${SEARCH}.${KEY}.${expires}.${mac.slice(0, 42)}+`,
      `bt1.${SEARCH}.${KEY}.-${expires}.${mac}`,
      `bt1.${SEARCH}.${KEY}.1${expires.padStart(12, '0')}.${mac}`,
    ])
      expect(signer.verify(bad, NOW), bad).toBeNull();
  });

  it('accepts the longest key id and a 12-digit expiry as issued', () => {
    const longKey = `key_${'Z'.repeat(40)}`;
    expect(signer.verify(signer.issue(SEARCH, longKey, NOW), NOW)?.keyId).toBe(longKey);
    const far = 999_999_999_999 * 1000 - BEACON_TOKEN_TTL_MS;
    expect(signer.verify(signer.issue(SEARCH, KEY, far), far)?.expiresAt).toBe(999_999_999_999_000);
  });
});

describe('beaconSignerFor', () => {
  it('no signer without a secret; one signer per secret', () => {
    expect(beaconSignerFor(null)).toBeNull();
    expect(beaconSignerFor('')).toBeNull();
    const one = beaconSignerFor(SECRET);
    expect(one).not.toBeNull();
    expect(beaconSignerFor(SECRET)).toBe(one);
    expect(beaconSignerFor(OTHER)).not.toBe(one);
    expect(one?.verify(beaconSignerFor(OTHER)?.issue(SEARCH, KEY, NOW) ?? '', NOW)).toBeNull();
  });
});
