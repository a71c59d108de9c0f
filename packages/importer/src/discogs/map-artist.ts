import type { ArtistRow } from '@catalogue/core';
import { mapNameRefs } from './map-credits.js';
import { RecordError } from './record-error.js';
import { childText, listTexts, nullableText, positiveIntOrNull, type XmlNode } from './xml-node.js';

export function artistIdOf(record: XmlNode): string | undefined {
  return childText(record, 'id');
}

/** `<artist>` of the artists dump → ArtistRow. */
export function mapArtist(record: XmlNode): ArtistRow {
  const discogsId = positiveIntOrNull(artistIdOf(record));
  if (discogsId === null) throw new RecordError('artist has no <id>');
  return {
    discogs_id: discogsId,
    name: nullableText(childText(record, 'name')) ?? '',
    real_name: nullableText(childText(record, 'realname')),
    profile: nullableText(childText(record, 'profile')),
    data_quality: nullableText(childText(record, 'data_quality')),
    name_variations: listTexts(record, 'namevariations', 'name'),
    aliases: mapNameRefs(record, 'aliases', 'name'),
    members: mapNameRefs(record, 'members', 'name'),
    groups: mapNameRefs(record, 'groups', 'name'),
    urls: listTexts(record, 'urls', 'url'),
    // The dumps link neither; other sources fill them in.
    mbid: null,
    spotify_id: null,
  };
}
