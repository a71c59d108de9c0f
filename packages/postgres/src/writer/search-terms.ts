/**
 * Rebuilds search_terms (migration 0013) from search_documents: for each document, each of its
 * words that prefixes one of its primary (weight A: title, artist, agent name) words, with the
 * document's exact score for that word alone as the query — core's pointsOf for one token:
 * matched 1, primary 1, whole 1, phrase 2 when the name is that word, so 1037 or 1033, plus
 * popularity (score0), summed as float8 exactly as scoreExpression sums them. Then
 * search_style_words (migration 0014): each master's words under each of its style keys.
 */
import type { Sql } from 'postgres';
import { buildIndexesLike, setLoad, swapIn } from '../bulk/table-swap.js';
import type { StagingMode } from './staging.js';

const SELECT_TERMS = `
  SELECT w.lexeme, (CASE WHEN d.name_key = w.lexeme THEN 1037 ELSE 1033 END)::float8 + d.score0, d.kind, d.id, d.genre_keys, d.style_keys
  FROM search_documents d CROSS JOIN LATERAL unnest(d.tsv) AS w
  WHERE 'A' = ANY (w.weights)
     OR EXISTS (SELECT 1 FROM unnest(d.tsv) AS p WHERE 'A' = ANY (p.weights) AND starts_with(p.lexeme, w.lexeme))`;

const COLUMNS = '(token, score, kind, id, genre_keys, style_keys)';

/** Migration 0014: every word of every master under each of its style keys. */
const SELECT_STYLE_WORDS = `
  SELECT s.key, w.lexeme, d.id
  FROM search_documents d CROSS JOIN LATERAL unnest(d.style_keys) AS s(key) CROSS JOIN LATERAL unnest(d.tsv) AS w
  WHERE d.kind = 0`;
const STYLE_WORD_COLUMNS = '(style_key, token, id)';

/**
 * On PostgreSQL into a fresh table, indexed after the load and swapped in (bulk/table-swap.ts),
 * so searches keep reading the old terms meanwhile; on PGlite emptied and refilled in one
 * transaction.
 */
export async function rebuildSearchTerms(sql: Sql, mode: StagingMode): Promise<void> {
  await rebuildFromDocuments(sql, mode, 'search_terms', COLUMNS, SELECT_TERMS);
  await rebuildFromDocuments(sql, mode, 'search_style_words', STYLE_WORD_COLUMNS, SELECT_STYLE_WORDS);
}

async function rebuildFromDocuments(sql: Sql, mode: StagingMode, table: string, columns: string, select: string): Promise<void> {
  if (mode === 'copy') {
    const target = `import_${table}`;
    await sql.unsafe(`DROP TABLE IF EXISTS ${target}`);
    await sql.unsafe(`CREATE TABLE ${target} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
    try {
      await sql.begin(async (tx) => {
        await setLoad(tx);
        await tx.unsafe(`INSERT INTO ${target} ${columns} ${select}`);
      });
      await buildIndexesLike(sql, table, target);
      await sql.begin((tx) => swapIn(tx, table, target));
    } finally {
      await sql.unsafe(`DROP TABLE IF EXISTS ${target}`);
    }
    return;
  }
  await sql.begin(async (tx) => {
    await tx.unsafe(`DELETE FROM ${table}`);
    await tx.unsafe(`INSERT INTO ${table} ${columns} ${select}`);
  });
}
