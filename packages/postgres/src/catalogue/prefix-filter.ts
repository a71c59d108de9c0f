/**
 * A Bloom filter of the prefixes of the catalogue's vocabulary (search_vocabulary), kept in
 * the serving process (vocabulary-hint.ts): it says when no vocabulary word can start with a
 * query word, so search (search.ts, "a word no vocabulary word starts with") asks for the
 * word's corrections at once, in the statement that also checks the word has no hit, instead
 * of first asking for hits it cannot have. It never answers "absent" for a prefix it was built
 * with (no false negatives); a false "present" (about 1 % at 10 bits a prefix) only leaves a
 * typo on the path it took before, and the statement's check makes a wrong "absent" (a filter
 * of an older generation) cost a statement, never a wrong answer.
 *
 * What it holds: of each word, its prefixes of MIN_TYPO_LENGTH to PREFIX_CAP characters (a
 * shorter query word is never corrected; a longer one is looked up by its first PREFIX_CAP
 * characters, which any word it prefixes also starts with). Keys are folded tokens ([a-z0-9]),
 * hashed by their UTF-16 code units.
 *
 * Hand-written rather than `bloom-filters` (npm, 3.0.4): that package brings eight dependencies
 * (seedrandom, xxhashjs, long, lodash, reflect-metadata, …) for what is a bit array and two
 * hashes here.
 */
import { MIN_TYPO_LENGTH } from '@catalogue/core/catalogue';

/** Prefixes longer than this are not kept: a longer query word is looked up by its first PREFIX_CAP characters. */
export const PREFIX_CAP = 12;
/** Bits per kept prefix when the bound allows: about 1 % false "present" with 7 hashes. */
const BITS_PER_PREFIX = 10;

/** The prefixes of `word` the filter keeps: MIN_TYPO_LENGTH to PREFIX_CAP characters long. */
export function keptPrefixCount(word: string): number {
  return Math.max(0, Math.min(word.length, PREFIX_CAP) - MIN_TYPO_LENGTH + 1);
}

export class PrefixFilter {
  readonly #bits: Uint32Array;
  readonly #size: number;
  readonly #hashes: number;

  /**
   * A filter for about `prefixes` prefixes in at most `maxBytes`: 10 bits a prefix when they
   * fit, fewer (more false "present") when not.
   */
  constructor(prefixes: number, maxBytes: number) {
    const bits = Math.max(64, Math.min(Math.ceil(prefixes * BITS_PER_PREFIX), Math.floor(maxBytes * 8)));
    this.#bits = new Uint32Array(Math.ceil(bits / 32));
    this.#size = this.#bits.length * 32;
    // The optimal count, (bits / prefixes) · ln 2, between 1 and 8.
    this.#hashes = Math.min(8, Math.max(1, Math.round((this.#size / Math.max(prefixes, 1)) * Math.LN2)));
  }

  get bytes(): number {
    return this.#bits.byteLength;
  }

  /** Keeps every prefix of `word` the filter holds (keptPrefixCount). */
  addWord(word: string): void {
    const last = Math.min(word.length, PREFIX_CAP);
    for (let length = MIN_TYPO_LENGTH; length <= last; length++) this.#add(word, length);
  }

  /**
   * False only when no word the filter was built with starts with `word` (a word shorter than
   * MIN_TYPO_LENGTH: true, not known).
   */
  mayPrefix(word: string): boolean {
    if (word.length < MIN_TYPO_LENGTH) return true;
    return this.#has(word, Math.min(word.length, PREFIX_CAP));
  }

  #add(word: string, length: number): void {
    const [first, second] = hashesOf(word, length);
    for (let i = 0; i < this.#hashes; i++) {
      const bit = (first + i * second) % this.#size;
      this.#bits[bit >>> 5] = (this.#bits[bit >>> 5] as number) | (1 << (bit & 31));
    }
  }

  #has(word: string, length: number): boolean {
    const [first, second] = hashesOf(word, length);
    for (let i = 0; i < this.#hashes; i++) {
      const bit = (first + i * second) % this.#size;
      if (((this.#bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/**
 * Two independent 32-bit hashes of `word`'s first `length` code units (FNV-1a and a
 * multiply-xorshift one), combined as Kirsch–Mitzenmacher double hashing; the second is odd so
 * the probes differ.
 */
function hashesOf(word: string, length: number): [number, number] {
  let fnv = 0x811c9dc5;
  let mix = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    const code = word.charCodeAt(i);
    fnv = Math.imul(fnv ^ code, 0x01000193);
    mix = Math.imul(mix ^ code, 0x85ebca6b);
    mix ^= mix >>> 13;
  }
  mix = Math.imul(mix ^ (mix >>> 16), 0xc2b2ae35);
  mix ^= mix >>> 16;
  return [fnv >>> 0, (mix | 1) >>> 0];
}
