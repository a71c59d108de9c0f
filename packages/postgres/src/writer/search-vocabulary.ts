/**
 * search_vocabulary (migration 0018): the catalogue's distinct words of 4+ characters with the
 * number of search documents holding each, that typo tolerance corrects query words to
 * (core's catalogue/typos.ts, packages/postgres/src/catalogue/typos.ts). finish() rebuilds it
 * from the live search documents once they are swapped in, so a word the import brought
 * becomes a correction with that import: on PostgreSQL into a fresh table, indexed after the
 * load and swapped in (bulk/table-swap.ts), so searches keep reading the old words meanwhile;
 * on PGlite emptied and refilled in one transaction.
 */
import { MIN_VOCABULARY_LENGTH } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import { buildIndexesLike, setLoad, swapIn } from '../bulk/table-swap.js';
import type { StagingMode } from './staging.js';

/** Longer words never correct a query word (core's MAX_CORRECTABLE_LENGTH plus two edits). */
const MAX_WORD_LENGTH = 42;

const fill = (target: string) => `
  INSERT INTO ${target} (word, documents)
  SELECT w, count(*)::int FROM search_documents d CROSS JOIN LATERAL unnest(d.tokens) AS w
  WHERE length(w) BETWEEN ${MIN_VOCABULARY_LENGTH} AND ${MAX_WORD_LENGTH}
  GROUP BY w`;

export async function rebuildSearchVocabulary(sql: Sql, mode: StagingMode): Promise<void> {
  if (mode !== 'copy') {
    await sql.begin(async (tx) => {
      await tx.unsafe('DELETE FROM search_vocabulary');
      await tx.unsafe(fill('search_vocabulary'));
    });
    return;
  }
  const target = 'import_search_vocabulary';
  await sql.unsafe(`DROP TABLE IF EXISTS ${target}`);
  await sql.unsafe(`CREATE TABLE ${target} (LIKE search_vocabulary INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
  try {
    await sql.begin(async (tx) => {
      await setLoad(tx);
      await tx.unsafe(fill(target));
    });
    await buildIndexesLike(sql, 'search_vocabulary', target);
    await sql.begin((tx) => swapIn(tx, 'search_vocabulary', target));
  } finally {
    await sql.unsafe(`DROP TABLE IF EXISTS ${target}`);
  }
}
