import type { ArtistRow, BandcampRow, CatalogueWriter, FestivalRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';

/** The tables a CatalogueWriter fills, in the order a full load writes them. */
export const TABLES = ['artists', 'labels', 'masters', 'releases', 'festivals', 'bandcamp'] as const;
export type Table = (typeof TABLES)[number];

export interface TableRowOf {
  artists: ArtistRow;
  labels: LabelRow;
  masters: MasterRow;
  releases: ReleaseRow;
  festivals: FestivalRow;
  bandcamp: BandcampRow;
}

/** Sends one batch to the writer method of its table. */
export function writeTable<T extends Table>(writer: CatalogueWriter, table: T, rows: TableRowOf[T][]): Promise<void> {
  const write = {
    artists: (batch: ArtistRow[]) => writer.writeArtists(batch),
    labels: (batch: LabelRow[]) => writer.writeLabels(batch),
    masters: (batch: MasterRow[]) => writer.writeMasters(batch),
    releases: (batch: ReleaseRow[]) => writer.writeReleases(batch),
    festivals: (batch: FestivalRow[]) => writer.writeFestivals(batch),
    bandcamp: (batch: BandcampRow[]) => writer.writeBandcamp(batch),
  }[table] as (batch: TableRowOf[T][]) => Promise<void>;
  return write(rows);
}
