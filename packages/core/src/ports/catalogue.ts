/** The Catalogue port: every read the routes make of the music catalogue. */
import type {
  AgentKind,
  ArtistDossier,
  BandcampSignals,
  Breakout,
  ClusterData,
  FacetValue,
  FestivalDossier,
  LabelDossier,
  MasterData,
  MasterDossierData,
  OneToWatch,
  SearchHitData,
  Tastemaker,
} from '../schemas/records.js';
import type { CallOptions } from './runtime.js';

export const FACET_NAMES = ['genre', 'style', 'format', 'country', 'year_from', 'year_to', 'label'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** Facet filters narrow the master set. Multi-valued facets are OR within, AND across. */
export interface FacetFilters {
  genre?: string[];
  style?: string[];
  format?: string[];
  country?: string[];
  label?: string[];
  year_from?: number;
  year_to?: number;
}

export type SearchType = 'all' | 'master' | 'artist' | 'label' | 'festival';

/** Keyset position: hits are ordered by score desc, then type, then id asc. */
export interface SearchPosition {
  score: number;
  type: SearchHitData['type'];
  id: number;
}

export interface SearchQuery {
  q: string | null;
  type: SearchType;
  filters: FacetFilters;
  /** The catalogue returns up to `limit` hits strictly after `after`. */
  limit: number;
  after: SearchPosition | null;
}

export interface FacetsQuery {
  q: string | null;
  facets: FacetName[];
  filters: FacetFilters;
  /** Values per facet. */
  limit: number;
}

export interface FacetsResult {
  total: number;
  facets: Partial<Record<FacetName, FacetValue[]>>;
}

/** A path `{key}` after parsing: a cluster id, a slug, or a typed locator. */
export type AgentKey = { by: 'cluster_id'; cluster_id: number } | { by: 'slug'; slug: string } | { by: 'discogs'; id: number } | { by: 'mbid'; mbid: string };

export interface AgentIdentity {
  kind: AgentKind;
  cluster_id: number;
  slug: string;
  name: string;
}

/** A resolve question, already parsed by core (links are turned into typed locators). */
export type ResolveInput =
  | { by: 'q'; q: string }
  | { by: 'discogs'; kind: 'artist' | 'label' | 'master'; id: number }
  | { by: 'mbid'; mbid: string }
  | { by: 'bandcamp'; host: string }
  | { by: 'spotify'; id: string };

export type BreakoutWindow = '30d' | '90d';

export interface BreakoutsQuery {
  window: BreakoutWindow;
  genre: string | null;
  limit: number;
}

export interface TastemakersQuery {
  kind: 'label' | 'festival' | null;
  limit: number;
}

export interface OnesToWatchQuery {
  genre: string | null;
  limit: number;
}

export interface BandcampManifestQuery {
  tag: string | null;
  limit: number;
  /** cluster_id of the last artist of the previous page. */
  after: number | null;
}

export interface BandcampManifest {
  as_of: string | null;
  artists: Array<{ cluster_id: number; slug: string; name: string; url: string; followers: number; supporters: number }>;
}

export type BandcampReleaseQuery = { by: 'url'; url: string } | { by: 'artist'; cluster_id: number };

export interface BandcampReleaseData {
  artist: { cluster_id: number; slug: string; name: string };
  releases: Array<{ title: string; url: string; released: string | null; tags: string[] }>;
}

/** A master record serialized as JSON text (see Catalogue.mastersJson). */
export interface MasterJson {
  master_id: number;
  json: string;
}

/** A master's record, its releases (at most 100, as its dossier sorts them) and how many it has. */
export type MasterDetail = Pick<MasterDossierData, 'master' | 'releases' | 'release_count'>;

/** A page of hits and the query words corrected to find them (issue 29). */
export interface SearchPage {
  hits: SearchHitData[];
  /** Query word (folded) → the correction the page's hits used; {} when none was (catalogue/typos.ts, correctedOf). */
  corrected: Record<string, string>;
}

export interface Catalogue {
  search(query: SearchQuery, lifetime?: CallOptions): Promise<SearchHitData[]>;
  /**
   * Optional: the same hits as `search`, with the words it corrected. Without it the search
   * routes answer `search`'s hits and report nothing corrected. The routes call this one when
   * present: a wrapper that replaces `search` replaces or removes it too.
   */
  searchPage?(query: SearchQuery, lifetime?: CallOptions): Promise<SearchPage>;
  facets(query: FacetsQuery, lifetime?: CallOptions): Promise<FacetsResult>;
  master(id: number, lifetime?: CallOptions): Promise<MasterData | null>;
  /** Any order, each found id once; core puts them in request order. */
  masters(ids: number[], lifetime?: CallOptions): Promise<MasterData[]>;
  /**
   * Optional: the records of `masters`, each already serialized, and byte for byte
   * `JSON.stringify` of the record `masters` returns. An adapter that stores serialized records
   * hands them over without parsing them only for the batch route to serialize them again
   * (for 500 masters, most of the batch's work). Any order, each found id once.
   */
  mastersJson?(ids: number[], lifetime?: CallOptions): Promise<MasterJson[]>;
  masterDossier(id: number, lifetime?: CallOptions): Promise<MasterDossierData | null>;
  /**
   * Optional: the record, releases and release count of many masters at once (each found id
   * once, any order) — what an artist's v2 discography embeds per master. The same values as
   * each master's dossier, in a few queries instead of a few per master.
   */
  masterDetails?(ids: readonly number[], lifetime?: CallOptions): Promise<MasterDetail[]>;
  /** Finds the agent a key names, optionally only of one kind. */
  findAgent(key: AgentKey, kind: AgentKind | null, lifetime?: CallOptions): Promise<AgentIdentity | null>;
  artistDossier(clusterId: number, lifetime?: CallOptions): Promise<ArtistDossier | null>;
  labelDossier(clusterId: number, lifetime?: CallOptions): Promise<LabelDossier | null>;
  festivalDossier(clusterId: number, lifetime?: CallOptions): Promise<FestivalDossier | null>;
  resolve(input: ResolveInput, lifetime?: CallOptions): Promise<ClusterData | null>;
  bandcampArtist(clusterId: number, lifetime?: CallOptions): Promise<BandcampSignals | null>;
  bandcampManifest(query: BandcampManifestQuery, lifetime?: CallOptions): Promise<BandcampManifest>;
  bandcampReleases(query: BandcampReleaseQuery, lifetime?: CallOptions): Promise<BandcampReleaseData | null>;
  breakouts(query: BreakoutsQuery, lifetime?: CallOptions): Promise<{ as_of: string | null; items: Breakout[] }>;
  tastemakers(query: TastemakersQuery, lifetime?: CallOptions): Promise<{ as_of: string | null; items: Tastemaker[] }>;
  onesToWatch(query: OnesToWatchQuery, lifetime?: CallOptions): Promise<{ as_of: string | null; items: OneToWatch[] }>;
}
