/**
 * Statistics and clean indexes for the catalogue tables. After a load, VACUUM (ANALYZE):
 * without it the planner works from empty statistics (it estimated 3 rows for a genre matching 24,497) and every GIN index
 * keeps the whole load in its unsorted pending list (fastupdate), which each search then
 * scans: search p95 went from ~100 ms to ~4 ms at 100,000 masters once vacuumed.
 * VACUUM cannot run inside a transaction, so this is its own statement after finish()'s work.
 */
import type { Sql, TransactionSql } from 'postgres';
import { inLanes } from '../lanes.js';

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

/**
 * VACUUM (ANALYZE) of every catalogue table, two tables at a time where the pool has the
 * connections: a VACUUM works one table on one core, and one statement over the list left the
 * second core idle for the 12 s it took after a 4 M-record import (issue 29). Largest first,
 * each lane taking the next table as it ends, so the two end close together; PGlite's one
 * connection runs the list as one statement.
 */
export async function vacuumCatalogue(sql: Sql): Promise<void> {
  const lanes = Math.min(VACUUM_LANES, sql.options.max ?? 1);
  if (lanes < 2) {
    await sql.unsafe(`VACUUM (ANALYZE) ${CATALOGUE_TABLES.join(', ')}`);
    return;
  }
  const sized = await sql<Array<{ table: string }>>`
    SELECT t AS table FROM unnest(${CATALOGUE_TABLES as unknown as string[]}::text[]) AS t
    ORDER BY pg_total_relation_size(t::regclass) DESC, t`;
  await inLanes(
    sized.map((row) => row.table),
    lanes,
    async (table) => {
      await sql.unsafe(`VACUUM (ANALYZE) ${table}`);
    },
  );
}

/** Two cores (the machine the import is measured on); more lanes would share them. */
const VACUUM_LANES = 2;
