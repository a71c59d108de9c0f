/**
 * Master records kept in the serving process, as the text the database stores them as
 * (master_records). A catalogue changes only on import, so a record read once answers every
 * later read of it until the writer's finish() advances the catalogue's generation (migration
 * 0008; learned by LISTEN within milliseconds, or the 5 s poll): then the whole cache is
 * dropped. The cache holds at most `maxBytes` of record text, the least recently used dropped
 * first.
 *
 * A record read while an import finishes could be the one of the generation before: a record
 * is kept only when the generation is the same after its read as before it.
 *
 * Between two finish() calls an import rewrites masters whose stored record it drops (served
 * live until the next finish()); a process that cached the record before keeps answering the
 * previous version until that finish() — the same "as of the last finish()" the stored
 * records already give artist and label names (docs/decisions.md §5).
 */
import type { CatalogueGeneration } from '../replicas/catalogue-generation.js';

export const DEFAULT_RECORD_CACHE_BYTES = 64 * 1024 * 1024;

export class RecordCache {
  readonly #records = new Map<number, string>();
  #bytes = 0;

  constructor(
    private readonly generation: Pick<CatalogueGeneration, 'current' | 'onChange'>,
    readonly maxBytes: number = DEFAULT_RECORD_CACHE_BYTES,
  ) {
    generation.onChange(() => this.clear());
  }

  /** The generation a read starts under; null while unknown (nothing is kept then). */
  get currentGeneration(): number | null {
    return this.generation.current()?.generation ?? null;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#records.size;
  }

  get(id: number): string | undefined {
    const text = this.#records.get(id);
    if (text !== undefined) {
      // Most recently used last: eviction takes the first.
      this.#records.delete(id);
      this.#records.set(id, text);
    }
    return text;
  }

  /** Keeps a record read under `generation`, unless the catalogue has moved on since. */
  set(id: number, text: string, generation: number | null): void {
    if (generation === null || generation !== this.currentGeneration) return;
    const size = sizeOf(text);
    if (size > this.maxBytes) return;
    const previous = this.#records.get(id);
    if (previous !== undefined) {
      this.#records.delete(id);
      this.#bytes -= sizeOf(previous);
    }
    this.#records.set(id, text);
    this.#bytes += size;
    while (this.#bytes > this.maxBytes) {
      const [oldest, oldText] = this.#records.entries().next().value as [number, string];
      this.#records.delete(oldest);
      this.#bytes -= sizeOf(oldText);
    }
  }

  clear(): void {
    this.#records.clear();
    this.#bytes = 0;
  }
}

/** UTF-16 code units × 2: what V8 may hold for the text (one-byte strings take half). */
function sizeOf(text: string): number {
  return text.length * 2;
}
