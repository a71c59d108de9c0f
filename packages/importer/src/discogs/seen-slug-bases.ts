/**
 * The slug bases a dump reader has met so far in its file (bulk-rows.ts, SlugBasesSeen): a
 * Bloom filter, so a file of millions of agents costs a fixed 4 MB instead of a set of their
 * bases. It never misses a base it was told (a row whose base an earlier row holds is always
 * loaded as `${base}-${id}`); a false "seen" (about 1 in 900 at the bench's 1.2 M artists, 1 in
 * 10 at the 2020-08 dump's 7 M) loads a row as `${base}-${id}` that owns its base, which the
 * first import's assignSlugs rewrites (bulk-load.ts). Hand-written, as the search's prefix
 * filter is (packages/postgres, prefix-filter.ts): a bit array and two hashes.
 */
import type { SlugBasesSeen } from '@catalogue/postgres/bulk-rows';

const BITS = 1 << 25;
const HASHES = 3;

export class SeenSlugBases implements SlugBasesSeen {
  readonly #bits = new Uint32Array(BITS / 32);

  /** True when `base` was (probably) told before; it is kept either way. */
  seen(base: string): boolean {
    // FNV-1a and a multiplicative hash of the UTF-16 code units, combined (Kirsch–Mitzenmacher).
    let first = 0x811c9dc5;
    let second = 0x9e3779b9;
    for (let i = 0; i < base.length; i++) {
      const unit = base.charCodeAt(i);
      first = Math.imul(first ^ unit, 0x01000193);
      second = Math.imul(second + unit, 0x85ebca6b) ^ (second >>> 13);
    }
    second |= 1;
    let present = true;
    for (let i = 0; i < HASHES; i++) {
      const bit = ((first + i * second) >>> 0) & (BITS - 1);
      const word = bit >>> 5;
      const mask = 1 << (bit & 31);
      if (((this.#bits[word] as number) & mask) === 0) {
        present = false;
        this.#bits[word] = (this.#bits[word] as number) | mask;
      }
    }
    return present;
  }
}
