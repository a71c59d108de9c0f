/**
 * The serving process's filter of the catalogue's vocabulary (prefix-filter.ts), loaded from
 * search_vocabulary at start and again whenever finish() advances the catalogue's generation
 * (replicas/catalogue-generation.ts: NOTIFY within milliseconds, or the 5 s poll). search.ts
 * uses it as a hint only: a query word it says no vocabulary word starts with has its
 * corrections asked for at once, and the statement that asks checks the word has no hit. So a
 * filter of the previous generation (a load still running, a NOTIFY not yet seen) costs a typo
 * of a word the import brought one statement more, never a wrong page.
 *
 * The load reads the vocabulary in keyset pages of PAGE_WORDS (short statements: no snapshot
 * or lock held across the import's table swap) and builds a new filter beside the one in use,
 * which it replaces when complete. At most one load runs; a change during one loads once more
 * after it. A load that fails (the database away, a data dir from before migration 0018)
 * leaves the filter it had, and is logged; the next generation tries again.
 *
 * Memory: 10 bits per prefix of 5 to 12 characters, up to `maxBytes` (CATALOGUE_TYPO_HINT_MB,
 * 16; past it the filter answers "may" more often, never wrongly "absent"). At 1 M masters
 * (150,531 words) the filter takes ~0.6 MB.
 */
import type { Logger } from '@catalogue/core';
import { MIN_TYPO_LENGTH } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { CatalogueGeneration } from '../replicas/catalogue-generation.js';
import { PREFIX_CAP, PrefixFilter } from './prefix-filter.js';
import type { PrefixHint } from './search.js';

export const DEFAULT_TYPO_HINT_BYTES = 16 * 1024 * 1024;
/** Vocabulary words read per statement. */
const PAGE_WORDS = 20_000;

export interface VocabularyHintOptions {
  maxBytes?: number;
  logger?: Logger;
}

export class VocabularyHint implements PrefixHint {
  #filter: PrefixFilter | null = null;
  #loading: Promise<void> | null = null;
  #again = false;
  #closed = false;
  readonly #maxBytes: number;

  constructor(
    private readonly sql: Sql,
    generation: Pick<CatalogueGeneration, 'onChange'> | null,
    private readonly options: VocabularyHintOptions = {},
  ) {
    this.#maxBytes = options.maxBytes ?? DEFAULT_TYPO_HINT_BYTES;
    generation?.onChange(() => void this.refresh());
    void this.refresh();
  }

  /** The filter last loaded (null before the first load ends). */
  get filter(): PrefixFilter | null {
    return this.#filter;
  }

  /** True unless the loaded filter says no vocabulary word starts with `word` (and true with none loaded). */
  mayPrefix(word: string): boolean {
    return this.#filter?.mayPrefix(word) ?? true;
  }

  /** Resolves when the load under way (the one the constructor began, or a generation's) has ended. */
  get loaded(): Promise<void> {
    return this.#loading ?? Promise.resolve();
  }

  /** Loads the vocabulary again; resolves when the filter in use is of a load begun after this call. */
  refresh(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#loading) {
      this.#again = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      do {
        this.#again = false;
        await this.#load();
      } while (this.#again && !this.#closed);
      this.#loading = null;
    })();
    return this.#loading;
  }

  /** Stops loading (a load under way ends after its current statement). */
  close(): void {
    this.#closed = true;
  }

  async #load(): Promise<void> {
    try {
      const [sized] = await this.sql<Array<{ prefixes: string }>>`
        SELECT coalesce(sum(GREATEST(0, LEAST(length(word), ${PREFIX_CAP}) - ${MIN_TYPO_LENGTH - 1})), 0)::text AS prefixes FROM search_vocabulary`;
      const filter = new PrefixFilter(Number(sized?.prefixes ?? 0), this.#maxBytes);
      let last = '';
      for (;;) {
        if (this.#closed) return;
        const page = await this.sql<Array<{ word: string }>>`
          SELECT word FROM search_vocabulary WHERE word > ${last} ORDER BY word LIMIT ${PAGE_WORDS}`;
        for (const { word } of page) filter.addWord(word);
        if (page.length < PAGE_WORDS) break;
        last = (page.at(-1) as { word: string }).word;
      }
      this.#filter = filter;
    } catch (error) {
      this.options.logger?.log({ level: 'warn', kind: 'catalogue.typo_hint_failed', error: error instanceof Error ? error.message : String(error) });
    }
  }
}
