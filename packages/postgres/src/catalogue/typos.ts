/**
 * The corrections of a query's words from search_vocabulary (migration 0018), by core's rule
 * (catalogue/typos.ts) in one statement: a word allowed one edit (5–8 characters) is looked up
 * by its n + 1 forms (itself and its one-deletion forms) in search_vocabulary_deletions
 * (migration 0019: the words sharing a deletion with it, or of which it is a deletion) and its
 * deletions in search_vocabulary (the words it has a letter too many for): ~2n btree probes,
 * where the equality probes of all its one-edit variants were ~36 · (2n + 1) (400–600) and
 * cost ~1–2 ms of PostgreSQL per corrected query at 1 M masters, and the trigram search before
 * them ~8 ms. A word allowed two (9+) takes the MAX_TRIGRAM_CANDIDATES vocabulary words most
 * trigram-similar to it (pg_trgm's `%` at core's TRIGRAM_THRESHOLD, over the GIN trigram index) of a length within its
 * allowed edits, and the words one transposition or one deletion away (by equality). Core keeps
 * the candidates within the allowed edits (optimal string alignment, which fuzzystrmatch lacks:
 * its levenshtein counts a transposition as two edits), so a superset found here (two deletions
 * can meet two edits apart) corrects exactly as the memory catalogue's variants do. Never a scan
 * of the documents: at most MAX_CORRECTED_WORDS words, each a bounded number of index lookups.
 */
import type { AbortProbe } from '@catalogue/core';
import {
  allowedTypos,
  correctablePositions,
  correctionsAffordable,
  correctionsAmong,
  deletionsOf,
  MAX_TRIGRAM_CANDIDATES,
  nearVariantsOf,
  TRIGRAM_THRESHOLD,
  type VocabularyWord,
} from '@catalogue/core/catalogue';
import type { Fragment, Sql } from 'postgres';
import type { Reader } from './reader.js';

/** A query's corrections by word position, and the documents holding each correction (search_vocabulary's count; 0 when unknown). */
export interface FoundCorrections {
  corrections: Map<number, string[]>;
  documentsOf(word: string): number;
  /** A correction's word + style entries under `styleEntries.styles`, counted up to its cap (undefined when not asked). */
  styleEntriesOf(word: string): number | undefined;
  /** The `typedProbe`'s answer, evaluated in the same statement (undefined when none was given). */
  typedMatched?: boolean;
}

/**
 * The word + style entries to count beside each correction (search.ts's styleWordCount, for a
 * one-word query with a style filter): counted in the same statement, one round trip fewer.
 */
export interface StyleEntries {
  styles: string[];
  cap: number;
}

export async function correctionsOf(
  sql: Sql,
  read: Reader,
  tokens: readonly string[],
  abort?: AbortProbe,
  styleEntries?: StyleEntries,
  typedProbe?: Fragment,
): Promise<FoundCorrections> {
  const positions = correctablePositions(tokens);
  const corrections = new Map<number, string[]>();
  if (positions.length === 0) return { corrections, documentsOf: () => 0, styleEntriesOf: () => undefined };
  const words = [...new Set(positions.map((position) => tokens[position] as string))];
  const similar = words.filter((word) => allowedTypos(word.length) >= 2);
  // Each form looked up by equality (in search_vocabulary, or as a deletion), and the query words it is a form of.
  const wordsOfVariant = new Map<string, string[]>();
  const wordsOfDeletion = new Map<string, string[]>();
  const note = (forms: Map<string, string[]>, form: string, word: string) => {
    const list = forms.get(form);
    if (list === undefined) forms.set(form, [word]);
    else if (!list.includes(word)) list.push(word);
  };
  for (const word of words) {
    if (allowedTypos(word.length) === 1) {
      const deletions = deletionsOf(word);
      for (const deletion of deletions) note(wordsOfVariant, deletion, word);
      for (const form of [word, ...deletions]) note(wordsOfDeletion, form, word);
    } else for (const variant of nearVariantsOf(word)) note(wordsOfVariant, variant, word);
  }
  const answered = await read(
    abort,
    () => sql<Array<VocabularyWord & { token: string | null; deletion: string | null; style_entries: number | null; typed: boolean | null }>>`
    WITH ${
      similar.length === 0
        ? sql``
        : // core's TRIGRAM_THRESHOLD for this statement's `%` alone (local: its own transaction), set before
          // the trigram scan starts: the scan waits on it as a one-time filter.
          sql`threshold AS MATERIALIZED (SELECT set_config('pg_trgm.similarity_threshold', ${String(TRIGRAM_THRESHOLD)}, true) AS value),`
    }
    found AS (
    SELECT NULL::text AS token, NULL::text AS deletion, word, documents FROM search_vocabulary WHERE word = ANY(${[...wordsOfVariant.keys()]}::text[])
    ${
      wordsOfDeletion.size === 0
        ? sql``
        : sql`UNION ALL
    SELECT NULL::text, x.deletion, v.word, v.documents
    FROM search_vocabulary_deletions x JOIN search_vocabulary v ON v.word = x.word
    WHERE x.deletion = ANY(${[...wordsOfDeletion.keys()]}::text[])`
    }
    ${
      similar.length === 0
        ? sql``
        : sql`UNION ALL
    SELECT t.token, NULL::text, v.word, v.documents
    FROM unnest(${similar}::text[], ${similar.map((word) => allowedTypos(word.length))}::int[]) AS t(token, edits)
    CROSS JOIN LATERAL (
      SELECT word, documents FROM search_vocabulary
      WHERE (SELECT value FROM threshold) IS NOT NULL AND word % t.token AND length(word) BETWEEN length(t.token) - t.edits AND length(t.token) + t.edits
      ORDER BY similarity(word, t.token) DESC, word COLLATE "C"
      LIMIT ${MAX_TRIGRAM_CANDIDATES}
    ) AS v`
    })
    SELECT token, deletion, word, documents, ${
      styleEntries === undefined || styleEntries.cap <= 0
        ? sql`NULL::int`
        : // search-filter.ts's styleWordRange over the found word.
          sql`(SELECT count(*)::int FROM (
            SELECT 1 FROM search_style_words s
            WHERE s.style_key = ANY(${styleEntries.styles}::text[]) AND s.token >= found.word AND s.token < (found.word || '~')
            LIMIT ${styleEntries.cap}) AS few)`
    } AS style_entries, ${
      typedProbe === undefined
        ? sql`NULL::boolean AS typed FROM found`
        : // The probe's one answer, on every row, and on a row of its own when nothing was found.
          sql`probe.typed FROM (SELECT ${typedProbe} AS typed) AS probe LEFT JOIN found ON TRUE`
    }`,
  );
  const typedMatched = typedProbe === undefined ? undefined : answered[0]?.typed === true;
  const rows = answered.filter((row) => row.word !== null);
  const byWord = new Map<string, VocabularyWord[]>();
  const add = (word: string, row: VocabularyWord) => {
    const list = byWord.get(word);
    if (list) list.push(row);
    else byWord.set(word, [row]);
  };
  for (const row of rows) {
    if (row.token !== null) add(row.token, row);
    else if (row.deletion !== null) for (const word of wordsOfDeletion.get(row.deletion) ?? []) add(word, row);
    else for (const word of wordsOfVariant.get(row.word) ?? []) add(word, row);
  }
  for (const position of positions) {
    const word = tokens[position] as string;
    const found = correctionsAmong(word, byWord.get(word) ?? []);
    if (found.length > 0) corrections.set(position, found);
  }
  const documents = new Map(rows.map((row) => [row.word, row.documents]));
  const documentsOf = (word: string) => documents.get(word) ?? 0;
  const entries = new Map(rows.map((row) => [row.word, row.style_entries ?? undefined]));
  return {
    corrections: correctionsAffordable(tokens, corrections, documentsOf) ? corrections : new Map(),
    documentsOf,
    styleEntriesOf: (word) => entries.get(word),
    ...(typedMatched === undefined ? {} : { typedMatched }),
  };
}
