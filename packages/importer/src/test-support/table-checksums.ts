/**
 * Row counts and an order-independent checksum of every catalogue table (the sum of each row's
 * 64-bit text hash), so two states compare equal exactly when no row was added, removed or
 * changed. catalogue_state is left out: finish() advances the generation on every import
 * (docs/decisions.md §5). Shared by bench/import and the importer's bulk import test.
 */
import type { Sql } from 'postgres';

export const CHECKED_TABLES = [
  'artists',
  'labels',
  'masters',
  'releases',
  'master_artists',
  'master_labels',
  'release_credits',
  'search_documents',
  'master_records',
  'facet_totals',
  'facet_state',
  'artist_signals',
  'signal_breakouts',
  'signal_tastemakers',
  'signal_ones_to_watch',
] as const;

export type TableChecksums = Record<string, { rows: number; checksum: string }>;

export async function tableChecksums(sql: Sql): Promise<TableChecksums> {
  const result: TableChecksums = {};
  for (const table of CHECKED_TABLES) {
    const [row] = await sql.unsafe<Array<{ rows: number; checksum: string | null }>>(
      `SELECT count(*)::int AS rows, sum(hashtextextended(t::text, 0))::text AS checksum FROM ${table} t`,
    );
    result[table] = { rows: row?.rows ?? 0, checksum: row?.checksum ?? '0' };
  }
  return result;
}

/** The tables whose count or checksum differ. */
export function changedTables(before: TableChecksums, after: TableChecksums): string[] {
  return Object.keys(before).filter((table) => before[table]?.rows !== after[table]?.rows || before[table]?.checksum !== after[table]?.checksum);
}
