/**
 * The corrections of a query's words from search_vocabulary (migration 0018), by core's rule
 * (catalogue/typos.ts) in one statement: a word allowed one edit (5–8 characters) looks its
 * one-edit variants up by equality (one btree probe each, ~36 · (2n + 1) of them; where a
 * trigram search rechecked ~1,500 vocabulary words per query word and cost ~8 ms at 1 M
 * masters); a word allowed two (9+) takes the MAX_TRIGRAM_CANDIDATES vocabulary words most
 * trigram-similar to it (pg_trgm's `%` at core's TRIGRAM_THRESHOLD, over the GIN trigram index) of a length within its
 * allowed edits, and the words one transposition or one deletion away (by equality); core keeps
 * those within the allowed edits (optimal string alignment, which fuzzystrmatch lacks: its
 * levenshtein counts a transposition as two edits). Never a scan of the documents: at most
 * MAX_CORRECTED_WORDS words, each a bounded number of index lookups.
 */
import type { AbortProbe } from '@catalogue/core';
import {
  allowedTypos,
  correctablePositions,
  correctionsAffordable,
  correctionsAmong,
  MAX_TRIGRAM_CANDIDATES,
  nearVariantsOf,
  oneEditVariantsOf,
  TRIGRAM_THRESHOLD,
  type VocabularyWord,
} from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { Reader } from './reader.js';

/** A query's corrections by word position, and the documents holding each correction (search_vocabulary's count; 0 when unknown). */
export interface FoundCorrections {
  corrections: Map<number, string[]>;
  documentsOf(word: string): number;
}

export async function correctionsOf(sql: Sql, read: Reader, tokens: readonly string[], abort?: AbortProbe): Promise<FoundCorrections> {
  const positions = correctablePositions(tokens);
  const corrections = new Map<number, string[]>();
  if (positions.length === 0) return { corrections, documentsOf: () => 0 };
  const words = [...new Set(positions.map((position) => tokens[position] as string))];
  const similar = words.filter((word) => allowedTypos(word.length) >= 2);
  // Each variant looked up by equality, and the query words it is a variant of.
  const wordsOfVariant = new Map<string, string[]>();
  for (const word of words) {
    for (const variant of allowedTypos(word.length) === 1 ? oneEditVariantsOf(word) : nearVariantsOf(word)) {
      const list = wordsOfVariant.get(variant);
      if (list) list.push(word);
      else wordsOfVariant.set(variant, [word]);
    }
  }
  const rows = await read(
    abort,
    () => sql<Array<VocabularyWord & { token: string | null }>>`
    ${
      similar.length === 0
        ? sql``
        : // core's TRIGRAM_THRESHOLD for this statement's `%` alone (local: its own transaction), set before
          // the trigram scan starts: the scan waits on it as a one-time filter.
          sql`WITH threshold AS MATERIALIZED (SELECT set_config('pg_trgm.similarity_threshold', ${String(TRIGRAM_THRESHOLD)}, true) AS value)`
    }
    SELECT NULL::text AS token, word, documents FROM search_vocabulary WHERE word = ANY(${[...wordsOfVariant.keys()]}::text[])
    ${
      similar.length === 0
        ? sql``
        : sql`UNION ALL
    SELECT t.token, v.word, v.documents
    FROM unnest(${similar}::text[], ${similar.map((word) => allowedTypos(word.length))}::int[]) AS t(token, edits)
    CROSS JOIN LATERAL (
      SELECT word, documents FROM search_vocabulary
      WHERE (SELECT value FROM threshold) IS NOT NULL AND word % t.token AND length(word) BETWEEN length(t.token) - t.edits AND length(t.token) + t.edits
      ORDER BY similarity(word, t.token) DESC, word COLLATE "C"
      LIMIT ${MAX_TRIGRAM_CANDIDATES}
    ) AS v`
    }`,
  );
  const byWord = new Map<string, VocabularyWord[]>();
  const add = (word: string, row: VocabularyWord) => {
    const list = byWord.get(word);
    if (list) list.push(row);
    else byWord.set(word, [row]);
  };
  for (const row of rows) {
    if (row.token !== null) add(row.token, row);
    else for (const word of wordsOfVariant.get(row.word) ?? []) add(word, row);
  }
  for (const position of positions) {
    const word = tokens[position] as string;
    const found = correctionsAmong(word, byWord.get(word) ?? []);
    if (found.length > 0) corrections.set(position, found);
  }
  const documents = new Map(rows.map((row) => [row.word, row.documents]));
  const documentsOf = (word: string) => documents.get(word) ?? 0;
  return { corrections: correctionsAffordable(tokens, corrections, documentsOf) ? corrections : new Map(), documentsOf };
}
