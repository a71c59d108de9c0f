/**
 * The gate's process-local cache of key lookups (docs/decisions.md §3): a key check costs no
 * database round trip while the limiter's one Redis round trip proves the cached entry current.
 *
 * Every entry carries the accounts epoch it was read under. The limiter's admit script compares
 * it with the shared epoch and answers `stale` (counting nothing) once any change to keys or
 * customers has moved the epoch on (Accounts mutations bump it: auth-invalidation.ts); the gate
 * then reads the store again. An entry is stored only when the epoch observed *before* its read
 * is still current after it, so a change that raced the read is never cached as current.
 *
 * Only admissible keys are cached (a refusal always reads the store), entries live at most
 * `maxAgeMs` (the bound if an epoch bump was lost with a store fault), and the cache holds at
 * most `maxEntries`, the oldest dropped first.
 */
import type { KeyWithCustomer } from '../ports/index.js';

export interface CachedKey {
  found: KeyWithCustomer;
  epoch: string;
  storedAt: number;
}

export const KEY_CACHE_MAX_ENTRIES = 10_000;
export const KEY_CACHE_MAX_AGE_MS = 60_000;

export class KeyCache {
  readonly #entries = new Map<string, CachedKey>();
  /** The accounts epoch the limiter answered last (null before any answer). */
  lastEpoch: string | null = null;

  constructor(
    readonly maxEntries: number = KEY_CACHE_MAX_ENTRIES,
    readonly maxAgeMs: number = KEY_CACHE_MAX_AGE_MS,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(hash: string, now: number): CachedKey | undefined {
    const entry = this.#entries.get(hash);
    if (entry && now - entry.storedAt > this.maxAgeMs) {
      this.#entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  set(hash: string, found: KeyWithCustomer, epoch: string, now: number): void {
    if (!this.#entries.has(hash) && this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(hash, { found, epoch, storedAt: now });
  }

  delete(hash: string): void {
    this.#entries.delete(hash);
  }

  clear(): void {
    this.#entries.clear();
    this.lastEpoch = null;
  }
}
