/**
 * The generator's only source of randomness: sfc32 (Chris Doty-Humphrey's Small Fast Counter,
 * PractRand-clean, 128-bit state) seeded through a splitmix32-style mixer.
 *
 * Every entity draws from its own stream, `rngFor(seed, tag, index)`, instead of one global
 * sequence. That is what lets the scale generator stream tables independently and in any
 * order with constant memory: artist 123 is the same artist whether or not the masters table
 * has been generated first.
 */

/** Finalizer of murmur3 / splitmix32: a bijective 32-bit avalanche. */
export function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Stable 32-bit hash of a short ASCII tag (FNV-1a), so streams are named, not numbered. */
export function tagHash(tag: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < tag.length; i++) h = Math.imul(h ^ tag.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** true with probability p. */
  chance(p: number): boolean;
  /** One element, uniformly. The list must not be empty. */
  pick<T>(items: readonly T[]): T;
  /** One element by weight. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T;
  /** Standard normal (Box–Muller). */
  normal(): number;
}

/**
 * A class rather than closures: the generator creates one Rng per entity (millions at scale),
 * and methods on the prototype keep that allocation to one small object.
 */
export class Sfc32 implements Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(a: number, b: number, c: number, d: number) {
    this.s0 = a >>> 0;
    this.s1 = b >>> 0;
    this.s2 = c >>> 0;
    this.s3 = d >>> 0;
    // Warm up so nearby seeds diverge before the first draw is used.
    for (let i = 0; i < 12; i++) this.next();
  }

  next(): number {
    const t = (((this.s0 + this.s1) | 0) + this.s3) | 0;
    this.s3 = (this.s3 + 1) | 0;
    this.s0 = this.s1 ^ (this.s1 >>> 9);
    this.s1 = (this.s2 + (this.s2 << 3)) | 0;
    this.s2 = (this.s2 << 21) | (this.s2 >>> 11);
    this.s2 = (this.s2 + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i] ?? 0;
      if (r < 0) return items[i] as T;
    }
    return items[items.length - 1] as T;
  }

  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

export function sfc32(a: number, b: number, c: number, d: number): Rng {
  return new Sfc32(a, b, c, d);
}

/** The stream of one entity: (seed, tag, index) → independent sfc32. */
const tagHashes = new Map<string, number>();

export function rngFor(seed: number, tag: string, index: number): Rng {
  let t = tagHashes.get(tag);
  if (t === undefined) {
    t = tagHash(tag);
    tagHashes.set(tag, t);
  }
  const lo = index >>> 0;
  const hi = Math.floor(index / 4294967296) >>> 0;
  const a = mix32(seed ^ 0x9e3779b9);
  const b = mix32(t ^ mix32(lo + 0x6a09e667));
  const c = mix32(a ^ b ^ hi ^ 0xbb67ae85);
  const d = mix32(lo ^ Math.imul(t, 0x27d4eb2f) ^ a);
  return sfc32(a, b, c, d);
}
