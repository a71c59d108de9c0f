/**
 * The corrections of a query's words from search_vocabulary (migration 0018), by core's rule
 * (catalogue/typos.ts) in one statement: per correctable word, the MAX_TRIGRAM_CANDIDATES
 * vocabulary words most trigram-similar to it (pg_trgm's `%`, over the GIN trigram index) of a
 * length within its allowed edits, and the words one transposition or one deletion away (by
 * equality); core keeps those within the allowed edits (optimal string alignment, which
 * fuzzystrmatch lacks: its levenshtein counts a transposition as two edits). Never a scan of the
 * documents: at most MAX_CORRECTED_WORDS index lookups of each kind.
 */
import type { AbortProbe } from '@catalogue/core';
import {
  allowedTypos,
  correctablePositions,
  correctionsAffordable,
  correctionsAmong,
  MAX_TRIGRAM_CANDIDATES,
  nearVariantsOf,
  type VocabularyWord,
} from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { Reader } from './reader.js';

export async function correctionsOf(sql: Sql, read: Reader, tokens: readonly string[], abort?: AbortProbe): Promise<Map<number, string[]>> {
  const positions = correctablePositions(tokens);
  const corrections = new Map<number, string[]>();
  if (positions.length === 0) return corrections;
  const words = [...new Set(positions.map((position) => tokens[position] as string))];
  const pairs = words.flatMap((word) => nearVariantsOf(word).map((variant) => [word, variant] as const));
  const rows = await read(
    abort,
    () => sql<Array<VocabularyWord & { token: string }>>`
    SELECT t.token, v.word, v.documents
    FROM unnest(${words}::text[], ${words.map((word) => allowedTypos(word.length))}::int[]) AS t(token, edits)
    CROSS JOIN LATERAL (
      SELECT word, documents FROM search_vocabulary
      WHERE word % t.token AND length(word) BETWEEN length(t.token) - t.edits AND length(t.token) + t.edits
      ORDER BY similarity(word, t.token) DESC, word COLLATE "C"
      LIMIT ${MAX_TRIGRAM_CANDIDATES}
    ) AS v
    UNION ALL
    SELECT n.token, s.word, s.documents
    FROM unnest(${pairs.map((pair) => pair[0])}::text[], ${pairs.map((pair) => pair[1])}::text[]) AS n(token, variant)
    JOIN search_vocabulary s ON s.word = n.variant`,
  );
  const byWord = new Map<string, VocabularyWord[]>();
  for (const row of rows) {
    const list = byWord.get(row.token);
    if (list) list.push(row);
    else byWord.set(row.token, [row]);
  }
  for (const position of positions) {
    const word = tokens[position] as string;
    const found = correctionsAmong(word, byWord.get(word) ?? []);
    if (found.length > 0) corrections.set(position, found);
  }
  const documents = new Map(rows.map((row) => [row.word, row.documents]));
  return correctionsAffordable(corrections, (word) => documents.get(word) ?? 0) ? corrections : new Map();
}
