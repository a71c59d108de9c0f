/**
 * search_terms (migration 0013), selected from search documents: for each document, each of its
 * words that prefixes one of its primary (weight A: title, artist, agent name) words, with the
 * document's exact score for that word alone as the query — core's pointsOf for one token:
 * matched 1, primary 1, whole 1, phrase 2 when the name is that word, so 1037 or 1033, plus
 * popularity (score0), summed as float8 exactly as scoreExpression sums them. (The word + style
 * entries, search_style_words, are built with the facet tables: facet-tables.ts.)
 *
 * On PostgreSQL finish()'s one pass fills them from the fresh documents before those are swapped
 * in (derived-copy.ts), so the four tables change together; here is the rebuild from the live
 * documents that PGlite runs, and that a reused bench database runs once (bench/catalogue).
 */
import { MIN_VOCABULARY_LENGTH, TWO_TYPOS_LENGTH } from '@catalogue/core/catalogue';
import { buildIndexesLike, setLoad, swapIn } from '../bulk/table-swap.js';
import { type Db, inTransaction, within } from './db.js';
import type { StagingMode } from './staging.js';

/** Longer words never correct a query word (core's MAX_CORRECTABLE_LENGTH plus two edits). */
const MAX_VOCABULARY_LENGTH = 42;

export interface TermTable {
  table: 'search_terms' | 'search_vocabulary' | 'search_vocabulary_deletions';
  /** The INSERT filling `target` from the documents in `source`. */
  fill(target: string, source: string): string;
}

export const TERM_TABLES: readonly TermTable[] = [
  {
    table: 'search_terms',
    fill: (target, source) => `
      INSERT INTO ${target} (token, score, kind, id, genre_keys, style_keys)
      SELECT w.lexeme, (CASE WHEN d.name_key = w.lexeme THEN 1037 ELSE 1033 END)::float8 + d.score0, d.kind, d.id, d.genre_keys, d.style_keys
      FROM ${source} d CROSS JOIN LATERAL unnest(d.tsv) AS w
      WHERE 'A' = ANY (w.weights)
         OR EXISTS (SELECT 1 FROM unnest(d.tsv) AS p WHERE 'A' = ANY (p.weights) AND starts_with(p.lexeme, w.lexeme))`,
  },
  {
    // search_vocabulary (migration 0018): the words typo tolerance corrects to (catalogue/typos.ts),
    // from the same fresh documents, so a word an import brought becomes a correction at that
    // import's one switch (issue 29), never before its documents.
    table: 'search_vocabulary',
    fill: (target, source) => `
      INSERT INTO ${target} (word, documents)
      SELECT w, count(*)::int FROM ${source} d CROSS JOIN LATERAL unnest(d.tokens) AS w
      WHERE length(w) BETWEEN ${MIN_VOCABULARY_LENGTH} AND ${MAX_VOCABULARY_LENGTH}
      GROUP BY w`,
  },
  {
    // search_vocabulary_deletions (migration 0019): the vocabulary's words a one-edit query word
    // can be corrected to, under each of their one-deletion forms (catalogue/typos.ts), from the
    // same documents, so it switches with the vocabulary.
    table: 'search_vocabulary_deletions',
    fill: (target, source) => `
      INSERT INTO ${target} (deletion, word)
      SELECT DISTINCT overlay(v.w placing '' from i for 1), v.w
      FROM (SELECT DISTINCT w FROM ${source} d CROSS JOIN LATERAL unnest(d.tokens) AS w
            WHERE length(w) BETWEEN ${MIN_VOCABULARY_LENGTH} AND ${TWO_TYPOS_LENGTH}) AS v
      CROSS JOIN LATERAL generate_series(1, length(v.w)) AS i`,
  },
];

/**
 * From the live search_documents: on PostgreSQL into a fresh table, indexed after the load and
 * swapped in (bulk/table-swap.ts), so searches keep reading the old terms meanwhile; on PGlite
 * emptied and refilled in one transaction.
 */
export async function rebuildSearchTerms(sql: Db, mode: StagingMode): Promise<void> {
  for (const { table, fill } of TERM_TABLES) {
    // In finish()'s transaction (PGlite's, or a pool too small for the one pass): in place.
    if (mode !== 'copy' || inTransaction(sql)) {
      await within(sql, async (tx) => {
        await tx.unsafe(`DELETE FROM ${table}`);
        await tx.unsafe(fill(table, 'search_documents'));
      });
      continue;
    }
    const target = `import_${table}`;
    await sql.unsafe(`DROP TABLE IF EXISTS ${target}`);
    await sql.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    try {
      await sql.begin(async (tx) => {
        await setLoad(tx);
        await tx.unsafe(fill(target, 'search_documents'));
      });
      await buildIndexesLike(sql, table, target);
      await sql.begin((tx) => swapIn(tx, table, target));
    } finally {
      await sql.unsafe(`DROP TABLE IF EXISTS ${target}`);
    }
  }
}
