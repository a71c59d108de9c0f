/** The whole catalogue in memory: the demo default, or any size small enough to hold. */
import type { CatalogueData, MasterRow, ReleaseRow } from '@catalogue/core';
import { type GenerateOptions, streamCatalogue } from './stream.js';

/** Collects `streamCatalogue(options)`: the same rows in the same order as streaming them. */
export function generateCatalogue(options: GenerateOptions = {}): CatalogueData {
  const stream = streamCatalogue(options);
  const masters: MasterRow[] = [];
  const releases: ReleaseRow[] = [];
  // One pass over masters instead of two (masters() and releases() each regenerate them).
  for (const { master, releases: own } of stream.mastersWithReleases()) {
    masters.push(master);
    for (const release of own) releases.push(release);
  }
  return {
    artists: [...stream.artists()],
    labels: [...stream.labels()],
    masters,
    releases,
    festivals: [...stream.festivals()],
    bandcamp: [...stream.bandcamp()],
  };
}
