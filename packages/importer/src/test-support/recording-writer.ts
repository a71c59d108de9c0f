import type { CatalogueWriter } from '@catalogue/core';
import { TABLES, type Table, type TableRowOf } from '../cli/tables.js';

const ID_OF: { [T in Table]: (row: TableRowOf[T]) => number } = {
  artists: (row) => row.discogs_id,
  labels: (row) => row.discogs_id,
  masters: (row) => row.master_id,
  releases: (row) => row.release_id,
  festivals: (row) => row.festival_id,
  bandcamp: (row) => row.artist_discogs_id,
};

/**
 * An in-memory CatalogueWriter for tests: records every batch it is given and keeps, per table,
 * the rows upserted by id, as the PostgreSQL writer does.
 */
export interface RecordingWriter extends CatalogueWriter {
  batches: Array<{ table: Table; rows: unknown[] }>;
  tables: { [T in Table]: Map<number, TableRowOf[T]> };
  finishCalls: number;
}

export function createRecordingWriter(): RecordingWriter {
  const tables = Object.fromEntries(TABLES.map((table) => [table, new Map()])) as RecordingWriter['tables'];
  const writer: RecordingWriter = {
    batches: [],
    tables,
    finishCalls: 0,
    writeArtists: async (rows) => upsert('artists', rows),
    writeLabels: async (rows) => upsert('labels', rows),
    writeMasters: async (rows) => upsert('masters', rows),
    writeReleases: async (rows) => upsert('releases', rows),
    writeFestivals: async (rows) => upsert('festivals', rows),
    writeBandcamp: async (rows) => upsert('bandcamp', rows),
    finish: async () => {
      writer.finishCalls += 1;
    },
  };
  function upsert<T extends Table>(table: T, rows: TableRowOf[T][]): void {
    // Copy, as a database would: later mutation by the caller must not change stored rows.
    writer.batches.push({ table, rows: structuredClone(rows) });
    for (const row of structuredClone(rows)) tables[table].set(ID_OF[table](row), row);
  }
  return writer;
}

/** Every table as sorted [id, row] pairs: equal snapshots mean equal stored state. */
export function snapshotOf(writer: RecordingWriter): Record<Table, Array<[number, unknown]>> {
  return Object.fromEntries(TABLES.map((table) => [table, [...writer.tables[table].entries()].sort(([a], [b]) => a - b)])) as Record<
    Table,
    Array<[number, unknown]>
  >;
}
