/**
 * Master records kept in the serving process, as the text the database stores them as
 * (master_records), with the catalogue generation they are of. A catalogue changes only on
 * import, so a record read once answers every later read of it until the writer's finish()
 * advances the catalogue's generation (migration 0008): then the whole cache is dropped. The
 * process learns it by LISTEN within milliseconds (or the 5 s poll), and from every master
 * read: each asks the database's generation in the statement that reads what was not kept
 * (stored-records.ts), and kept records of another generation than that answer are read again
 * (masters.ts). So no read mixes two generations, and a master read after any other read of
 * the new catalogue is of it too, not the NOTIFY's flight later (issue 29). The cache holds at most `maxBytes` of record text, the least recently used dropped
 * first as "second chance" (CLOCK) approximates it: a read only marks its record, and when room
 * is needed the oldest-placed record goes unless it was read since it was placed, in which case
 * it is placed again, unmarked, and the next is considered. Exact LRU moved the record to the
 * back of the map on every read (a delete and a set, and the map's rehashing after them): for a
 * warm 500-id batch, 1,500 map operations instead of 500 (issue 14).
 *
 * A record is kept only with the generation it was read from, and only while the cache is of
 * that generation. An import's rows reach no reader before its finish() commits (writer/
 * index.ts), so between two finish() calls a kept record is the stored one.
 */
import type { CatalogueGeneration } from '../replicas/catalogue-generation.js';

export const DEFAULT_RECORD_CACHE_BYTES = 64 * 1024 * 1024;

/** A kept record, and whether it was read since it was placed (second chance). */
interface Kept {
  text: string;
  read: boolean;
}

export class RecordCache {
  readonly #records = new Map<number, Kept>();
  #bytes = 0;
  /** The generation the kept records are of; null while unknown (nothing is kept then). */
  #generation: number | null;

  constructor(
    generation: Pick<CatalogueGeneration, 'current' | 'onChange'>,
    readonly maxBytes: number = DEFAULT_RECORD_CACHE_BYTES,
  ) {
    this.#generation = generation.current()?.generation ?? null;
    generation.onChange((state) => this.observe(state.generation));
  }

  /** The generation the kept records are of; null while unknown (nothing is kept then). */
  get currentGeneration(): number | null {
    return this.#generation;
  }

  /** A generation the database answered: a newer one than the kept records' drops them all. */
  observe(generation: number): void {
    if (this.#generation !== null && generation <= this.#generation) return;
    this.clear();
    this.#generation = generation;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#records.size;
  }

  get(id: number): string | undefined {
    const kept = this.#records.get(id);
    if (kept === undefined) return undefined;
    kept.read = true;
    return kept.text;
  }

  /** Keeps a record read from `generation`, unless the cache is of another one. */
  set(id: number, text: string, generation: number | null): void {
    if (generation === null || generation !== this.currentGeneration) return;
    const size = sizeOf(text);
    if (size > this.maxBytes) return;
    const previous = this.#records.get(id);
    if (previous !== undefined) {
      this.#records.delete(id);
      this.#bytes -= sizeOf(previous.text);
    }
    this.#records.set(id, { text, read: false });
    this.#bytes += size;
    while (this.#bytes > this.maxBytes) this.#dropOne();
  }

  clear(): void {
    this.#records.clear();
    this.#bytes = 0;
  }

  /**
   * Drops the oldest-placed record not read since it was placed; those read are placed again,
   * unmarked, on the way (a map's iteration visits them again at the end, so this ends).
   */
  #dropOne(): void {
    for (const [id, kept] of this.#records) {
      this.#records.delete(id);
      if (kept.read) {
        kept.read = false;
        this.#records.set(id, kept);
        continue;
      }
      this.#bytes -= sizeOf(kept.text);
      return;
    }
  }
}

/** UTF-16 code units × 2: what V8 may hold for the text (one-byte strings take half). */
function sizeOf(text: string): number {
  return text.length * 2;
}
