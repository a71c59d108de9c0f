/** The per-artist input every signal formula reads. */
import type { BandcampObservation } from '../../dataset.js';

export interface SignalArtist {
  cluster_id: number;
  slug: string;
  name: string;
  /** Main genre (see mainGenreOf). */
  genre: string | null;
  /** Bandcamp observations in date order; empty when the artist has no series. */
  observations: BandcampObservation[];
}

/** Case-insensitive genre filter shared by breakouts and ones-to-watch. */
export function matchesGenre(genre: string | null, wanted: string | null): boolean {
  return wanted === null || (genre !== null && genre.toLowerCase() === wanted.toLowerCase());
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
