/** External-id shapes drawn from a PRNG: MusicBrainz UUIDs (v4 layout) and Spotify base62 ids. */
import type { Rng } from './prng.js';

const HEX = '0123456789abcdef';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function uuidV4(rng: Rng): string {
  let out = '';
  for (let i = 0; i < 32; i++) {
    let nibble = rng.int(0, 15);
    if (i === 12) nibble = 4; // version
    if (i === 16) nibble = 8 + (nibble & 3); // variant 10xx
    out += HEX[nibble];
    if (i === 7 || i === 11 || i === 15 || i === 19) out += '-';
  }
  return out;
}

export function spotifyId(rng: Rng): string {
  let out = '';
  for (let i = 0; i < 22; i++) out += BASE62[rng.int(0, 61)];
  return out;
}
