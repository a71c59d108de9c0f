/** The CatalogueWriter port: where importers and generators put catalogue rows. */
import type { ArtistRow, BandcampRow, FestivalRow, LabelRow, MasterRow, ReleaseRow } from '../dataset.js';

/**
 * Where importers and generators write rows (implemented by @catalogue/postgres with COPY).
 * Each call is one batch applied atomically (all rows or none) and idempotently (re-writing a
 * row with the same id replaces it, so a re-import changes nothing).
 */
export interface CatalogueWriter {
  writeArtists(rows: ArtistRow[]): Promise<void>;
  writeLabels(rows: LabelRow[]): Promise<void>;
  writeMasters(rows: MasterRow[]): Promise<void>;
  writeReleases(rows: ReleaseRow[]): Promise<void>;
  writeFestivals(rows: FestivalRow[]): Promise<void>;
  writeBandcamp(rows: BandcampRow[]): Promise<void>;
  /**
   * Recomputes what derives from the rows (slugs, search documents, signals) after a run. A
   * store may skip the recomputation when no row changed since it last completed it;
   * `force` recomputes regardless (`catalogue refresh`, after an upgrade that adds derived data).
   */
  finish(options?: { force?: boolean }): Promise<void>;
}
