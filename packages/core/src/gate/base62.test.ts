/** base62 digits (base62.ts) and SHA-256 (hash.ts), on which every key's checksum and hash stand. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE62_ALPHABET, base62Fixed, randomBase62 } from './base62.js';
import { constantTimeEqual, sha256Bytes, sha256Hex } from './hash.js';

describe('base62Fixed', () => {
  it('writes fixed-width digits, most significant first', () => {
    expect(base62Fixed(0, 6)).toBe('000000');
    expect(base62Fixed(61, 2)).toBe('0z');
    expect(base62Fixed(62, 2)).toBe('10');
    expect(base62Fixed(62 * 62 + 10, 3)).toBe('10A');
    expect(base62Fixed(2 ** 32 - 1, 6)).toBe('4gfFC3');
  });

  it('reads the value as an unsigned 32-bit integer and keeps only `width` digits', () => {
    expect(base62Fixed(-1, 6)).toBe('4gfFC3');
    expect(base62Fixed(62 * 62 + 1, 2)).toBe('01');
    expect(base62Fixed(5, 0)).toBe('');
  });
});

describe('randomBase62', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives `length` characters of the alphabet', () => {
    for (const length of [0, 1, 26, 100]) {
      const text = randomBase62(length);
      expect(text).toHaveLength(length);
      for (const c of text) expect(BASE62_ALPHABET).toContain(c);
    }
    expect(BASE62_ALPHABET).toHaveLength(62);
  });

  it('drops the bytes 248 to 255 (which would favour the first 8 digits) and draws again', () => {
    const draws = [
      [248, 255, 0, 61, 252, 249],
      [62, 247, 250, 1, 5, 6],
    ];
    let call = 0;
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(buffer: T): T => {
      const bytes = buffer as unknown as Uint8Array;
      bytes.set((draws[call++] as number[]).slice(0, bytes.length));
      return buffer;
    });
    // Asking for 2 characters fills 4 bytes: 248 and 255 are dropped, 0 and 61 are kept.
    expect(randomBase62(2)).toBe('0z');
    call = 0;
    // 3 characters fill 6 bytes: 0 and 61 from the first draw, then 62 → '0' from the second.
    expect(randomBase62(3)).toBe('0z0');
    expect(call).toBe(2);
  });
});

describe('sha256Hex, sha256Bytes, constantTimeEqual', () => {
  it('hashes ASCII and other text as UTF-8', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('ck_live_x')).toBe('3395cb9be432e5df039de5d3bad32c5acf343b745e981e22502ff40521cbdfbb');
    expect(sha256Hex('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c');
    expect(sha256Hex('\u007f')).toHaveLength(64);
    expect(Buffer.from(sha256Bytes('é')).toString('hex')).toBe(sha256Hex('é'));
  });

  it('compares secrets: equal only when equal', () => {
    expect(constantTimeEqual('secret-token', 'secret-token')).toBe(true);
    expect(constantTimeEqual('secret-token', 'secret-tokeN')).toBe(false);
    expect(constantTimeEqual('Secret-token', 'secret-token')).toBe(false);
    expect(constantTimeEqual('short', 'a much longer secret')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
