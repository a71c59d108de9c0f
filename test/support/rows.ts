/** Catalogue rows with every field a fixture does not care about at its neutral value. */
import type { ArtistRow } from '@catalogue/core';

export function artistRow(discogs_id: number, name: string, extra: Partial<ArtistRow> = {}): ArtistRow {
  return {
    discogs_id,
    name,
    real_name: null,
    profile: null,
    data_quality: 'Correct',
    name_variations: [],
    aliases: [],
    members: [],
    groups: [],
    urls: [],
    mbid: null,
    spotify_id: null,
    ...extra,
  };
}
