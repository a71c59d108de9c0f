/**
 * Statistics and clean indexes for the catalogue tables. After a load, VACUUM (ANALYZE):
 * without it the planner works from empty statistics (it estimated 3 rows for a genre matching 24,497) and every GIN index
 * keeps the whole load in its unsorted pending list (fastupdate), which each search then
 * scans: search p95 went from ~100 ms to ~4 ms at 100,000 masters once vacuumed.
 * VACUUM cannot run inside a transaction, so this is its own statement after finish()'s work.
 */
import type { Sql, TransactionSql } from 'postgres';

const CATALOGUE_TABLES = [
  'artists',
  'labels',
  'festivals',
  'festival_lineups',
  'masters',
  'master_artists',
  'master_labels',
  'releases',
  'release_credits',
  'bandcamp_artists',
  'bandcamp_observations',
  'bandcamp_releases',
  'artist_signals',
  'signal_breakouts',
  'signal_tastemakers',
  'signal_ones_to_watch',
  'search_documents',
  // The master and batch routes' table: left out, it had no statistics, visibility map or hint
  // bits after an import until autovacuum came by (never, where autovacuum is off; issue 14).
  'master_records',
  'search_terms',
  'search_style_words',
  'facet_totals',
  'facet_codes',
  'search_vocabulary',
  'search_vocabulary_deletions',
] as const;

/** Statistics only (cheap, sampled): what finish()'s own joins need before they run. */
export async function analyzeCatalogue(sql: Sql | TransactionSql): Promise<void> {
  await sql.unsafe(`ANALYZE ${CATALOGUE_TABLES.join(', ')}`);
}

export async function vacuumCatalogue(sql: Sql): Promise<void> {
  await sql.unsafe(`VACUUM (ANALYZE) ${CATALOGUE_TABLES.join(', ')}`);
}
