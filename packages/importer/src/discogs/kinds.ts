import type { ArtistRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { artistIdOf, mapArtist } from './map-artist.js';
import { labelIdOf, mapLabel } from './map-label.js';
import { mapMaster, masterIdOf } from './map-master.js';
import { mapRelease, releaseIdOf } from './map-release.js';
import type { XmlNode } from './xml-node.js';

/** The four Discogs dumps; each is named after its root element. */
export type DiscogsKind = 'artists' | 'labels' | 'masters' | 'releases';

export const DISCOGS_KINDS: readonly DiscogsKind[] = ['artists', 'labels', 'masters', 'releases'];

export interface DiscogsRowOf {
  artists: ArtistRow;
  labels: LabelRow;
  masters: MasterRow;
  releases: ReleaseRow;
}

/** A batch of rows of one kind; `kind` tells which writer method takes it. */
export type DiscogsBatch = { [K in DiscogsKind]: { kind: K; rows: DiscogsRowOf[K][] } }[DiscogsKind];

export interface RecordMapper<K extends DiscogsKind> {
  /** The element of one record under the root: `<masters><master>`. */
  element: string;
  /** The record's id as written, for error messages (may be absent: that is the error). */
  idOf(record: XmlNode): string | undefined;
  map(record: XmlNode): DiscogsRowOf[K];
}

export const RECORD_MAPPERS: { [K in DiscogsKind]: RecordMapper<K> } = {
  artists: { element: 'artist', idOf: artistIdOf, map: mapArtist },
  labels: { element: 'label', idOf: labelIdOf, map: mapLabel },
  masters: { element: 'master', idOf: masterIdOf, map: mapMaster },
  releases: { element: 'release', idOf: releaseIdOf, map: mapRelease },
};

export function isDiscogsKind(name: string): name is DiscogsKind {
  return (DISCOGS_KINDS as readonly string[]).includes(name);
}
