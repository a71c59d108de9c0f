/**
 * The catalogue as plain rows: what importers and generators produce, what the in-memory
 * Catalogue indexes and what the PostgreSQL importer loads. Names follow the Discogs dumps
 * where a field comes from them.
 *
 * Agents (artists, labels, festivals) share one `cluster_id` space. The id is derived, never
 * allocated, so re-imports are idempotent and every host agrees without a lookup:
 *   artist   cluster_id = discogs_id * 4 + 1
 *   label    cluster_id = discogs_id * 4 + 2
 *   festival cluster_id = festival_id * 4 + 3
 */
import type { AgentKind } from './schemas/records.js';

export const CLUSTER_KIND_OFFSET: Record<AgentKind, number> = { artist: 1, label: 2, festival: 3 };

export function clusterIdOf(kind: AgentKind, sourceId: number): number {
  return sourceId * 4 + CLUSTER_KIND_OFFSET[kind];
}

export function kindOfClusterId(clusterId: number): AgentKind | null {
  switch (clusterId % 4) {
    case 1:
      return 'artist';
    case 2:
      return 'label';
    case 3:
      return 'festival';
    default:
      return null;
  }
}

export function sourceIdOfClusterId(clusterId: number): number {
  return Math.floor(clusterId / 4);
}

/** A name as it appears in a Discogs list, with the Discogs id when it has one. */
export interface DiscogsNameRef {
  discogs_id: number | null;
  name: string;
}

export interface ArtistRow {
  discogs_id: number;
  name: string;
  real_name: string | null;
  profile: string | null;
  data_quality: string | null;
  name_variations: string[];
  aliases: DiscogsNameRef[];
  members: DiscogsNameRef[];
  groups: DiscogsNameRef[];
  urls: string[];
  /** MusicBrainz id, when a source links one. */
  mbid: string | null;
  /** Spotify artist id, when a source links one. */
  spotify_id: string | null;
}

export interface LabelRow {
  discogs_id: number;
  name: string;
  profile: string | null;
  contact_info: string | null;
  data_quality: string | null;
  urls: string[];
  parent: DiscogsNameRef | null;
  sublabels: DiscogsNameRef[];
}

export interface CreditRow {
  discogs_id: number;
  name: string;
  anv: string | null;
  join: string | null;
  role: string | null;
}

export interface LabelCreditRow {
  discogs_id: number | null;
  name: string;
  catno: string | null;
}

export interface FormatRow {
  name: string;
  qty: number | null;
  descriptions: string[];
}

export interface MasterRow {
  master_id: number;
  title: string;
  /** null where the dump says 0 (unknown). */
  year: number | null;
  main_release_id: number | null;
  artists: CreditRow[];
  genres: string[];
  styles: string[];
  data_quality: string | null;
}

export interface ReleaseRow {
  release_id: number;
  master_id: number | null;
  is_main_release: boolean;
  title: string;
  artists: CreditRow[];
  extra_artists: CreditRow[];
  labels: LabelCreditRow[];
  formats: FormatRow[];
  genres: string[];
  styles: string[];
  country: string | null;
  /** As in the dump: 'YYYY', 'YYYY-MM-00', 'YYYY-MM-DD'. */
  released: string | null;
  data_quality: string | null;
}

/** Where an artist sits on a festival bill. */
export type LineupBilling = 'headliner' | 'main' | 'support';

export interface FestivalRow {
  festival_id: number;
  name: string;
  country: string | null;
  city: string | null;
  url: string | null;
  genres: string[];
  editions: Array<{
    year: number;
    /** ISO date 'YYYY-MM-DD'. */
    starts_on: string;
    lineup: Array<{ artist_discogs_id: number; billing: LineupBilling }>;
  }>;
}

export interface BandcampObservation {
  /** ISO date 'YYYY-MM-DD'. */
  date: string;
  followers: number;
  supporters: number;
}

export interface BandcampRow {
  artist_discogs_id: number;
  url: string;
  observations: BandcampObservation[];
  releases: Array<{ title: string; url: string; released: string | null; tags: string[] }>;
}

export interface CatalogueData {
  artists: ArtistRow[];
  labels: LabelRow[];
  masters: MasterRow[];
  releases: ReleaseRow[];
  festivals: FestivalRow[];
  bandcamp: BandcampRow[];
}

export function emptyCatalogueData(): CatalogueData {
  return { artists: [], labels: [], masters: [], releases: [], festivals: [], bandcamp: [] };
}
