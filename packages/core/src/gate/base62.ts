export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Fixed-width base62 of an unsigned 32-bit integer (6 digits hold 2^32). */
export function base62Fixed(value: number, width: number): string {
  let n = value >>> 0;
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE62_ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** `length` uniformly random base62 characters (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const byte of buf) {
      if (byte < 248 && out.length < length) out += BASE62_ALPHABET[byte % 62];
    }
  }
  return out;
}
