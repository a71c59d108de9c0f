/** Catalogue rows with every field a fixture does not care about at its neutral value. */
import type { ArtistRow } from '@catalogue/core';
import { artistStub } from '@catalogue/core/catalogue';

export function artistRow(discogs_id: number, name: string, extra: Partial<ArtistRow> = {}): ArtistRow {
  return { ...artistStub(discogs_id, name), data_quality: 'Correct', ...extra };
}
