/**
 * A seeded bijection of [0, n): x → (a·x + c) mod n with gcd(a, n) = 1, and its inverse.
 * Used to scatter roles (Bandcamp coverage, breakouts, tastemakers), popularity ranks and
 * names over ids without storing a shuffled array, so the scale generator stays O(1) memory
 * and any id's role can be asked for in O(1).
 */
import { rngFor } from './prng.js';

export interface Permutation {
  readonly size: number;
  forward(x: number): number;
  inverse(y: number): number;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** (a·b) mod n without losing precision when a·b exceeds 2^53. */
function mulMod(a: number, b: number, n: number): number {
  if (a * b < Number.MAX_SAFE_INTEGER) return (a * b) % n;
  return Number((BigInt(a) * BigInt(b)) % BigInt(n));
}

function modInverse(a: number, n: number): number {
  let [oldR, r] = [a, n];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const q = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % n) + n) % n;
}

export function affinePermutation(seed: number, tag: string, n: number): Permutation {
  if (n <= 1) return { size: n, forward: (x) => x, inverse: (y) => y };
  const rng = rngFor(seed, `perm:${tag}`, n);
  // A multiplier near n·φ scatters neighbours far apart; step until coprime.
  let a = Math.max(1, Math.floor(n * (0.55 + 0.2 * rng.next())));
  while (gcd(a, n) !== 1) a++;
  const c = Math.floor(rng.next() * n);
  const aInv = modInverse(a, n);
  return {
    size: n,
    forward: (x) => (mulMod(a, x, n) + c) % n,
    inverse: (y) => mulMod(aInv, (((y - c) % n) + n) % n, n),
  };
}
