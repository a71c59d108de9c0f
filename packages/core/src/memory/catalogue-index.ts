/** Everything the memory catalogue looks up, built once from the rows. */

import { withAgentStubs } from '../catalogue/agent-stubs.js';
import { bandcampHostOf, releaseUrlKey } from '../catalogue/locators.js';
import { type AgentLookup, mapLookup } from '../catalogue/lookup.js';
import { masterSearchEntry, type SearchEntry, searchEntry } from '../catalogue/search.js';
import { computeSignals, type Signals } from '../catalogue/signals/engine.js';
import { mainGenreOf } from '../catalogue/signals/main-genre.js';
import { sortedObservations } from '../catalogue/signals/metric.js';
import { festivalPicksOf, labelPicksOf } from '../catalogue/signals/picks.js';
import type { SignalArtist } from '../catalogue/signals/signal-artist.js';
import { assignSlugs } from '../catalogue/slugs.js';
import { MIN_VOCABULARY_LENGTH, trigramsOf } from '../catalogue/typos.js';
import {
  type ArtistRow,
  type BandcampRow,
  type CatalogueData,
  clusterIdOf,
  type FestivalRow,
  type LabelRow,
  type MasterRow,
  type ReleaseRow,
} from '../dataset.js';
import type { AgentKind } from '../schemas/records.js';

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface CatalogueIndex {
  artists: Map<number, ArtistRow>;
  labels: Map<number, LabelRow>;
  festivals: Map<number, FestivalRow>;
  slugs: Record<AgentKind, Map<number, string>>;
  bySlug: Record<AgentKind, Map<string, number>>;
  lookup: AgentLookup;
  artistByMbid: Map<string, number>;
  artistBySpotify: Map<string, number>;
  artistByBandcampHost: Map<string, number>;
  bandcamp: Map<number, BandcampRow>;
  bandcampReleaseByUrl: Map<string, { artistId: number; release: BandcampRow['releases'][number] }>;
  masters: Map<number, MasterRow>;
  releases: Map<number, ReleaseRow>;
  releasesByMaster: Map<number, ReleaseRow[]>;
  /** Masters where the artist is a main artist, in data order. */
  mainMastersByArtist: Map<number, MasterRow[]>;
  /** Master ids where the artist has an extra_artists credit on any release. */
  creditedMastersByArtist: Map<number, Set<number>>;
  /** Masters whose main release carries the label. */
  mastersByLabel: Map<number, MasterRow[]>;
  festivalsByArtist: Map<number, FestivalRow[]>;
  signalArtists: Map<number, SignalArtist>;
  signals: Signals;
  entries: SearchEntry[];
  /** Every word of MIN_VOCABULARY_LENGTH+ characters of the entries → entries holding it (catalogue/typos.ts); built on first use. */
  vocabulary(): ReadonlyMap<string, number>;
  /** The trigrams of each vocabulary word, built with it. */
  vocabularyTrigrams(): ReadonlyMap<string, Set<string>>;
}

export function mainReleaseOf(index: CatalogueIndex, master: MasterRow): ReleaseRow | null {
  return master.main_release_id === null ? null : (index.releases.get(master.main_release_id) ?? null);
}

export function buildCatalogueIndex(rows: CatalogueData): CatalogueIndex {
  // Every credited artist and label is an agent, whether or not the dumps hold its row.
  const data = withAgentStubs(rows);
  const artists = new Map(data.artists.map((row) => [row.discogs_id, row]));
  const labels = new Map(data.labels.map((row) => [row.discogs_id, row]));
  const festivals = new Map(data.festivals.map((row) => [row.festival_id, row]));
  const slugs: CatalogueIndex['slugs'] = {
    artist: assignSlugs(
      'artist',
      data.artists.map((row) => ({ sourceId: row.discogs_id, name: row.name })),
    ),
    label: assignSlugs(
      'label',
      data.labels.map((row) => ({ sourceId: row.discogs_id, name: row.name })),
    ),
    festival: assignSlugs(
      'festival',
      data.festivals.map((row) => ({ sourceId: row.festival_id, name: row.name })),
    ),
  };
  const bySlug = { artist: new Map<string, number>(), label: new Map<string, number>(), festival: new Map<string, number>() };
  for (const kind of ['artist', 'label', 'festival'] as const) {
    // ascending source id, so a derived slug that equals another row's base never steals it
    for (const [id, slug] of [...slugs[kind]].sort((a, b) => a[0] - b[0])) if (!bySlug[kind].has(slug)) bySlug[kind].set(slug, id);
  }
  const named = (kind: AgentKind, rows: Map<number, { name: string }>) =>
    new Map([...rows].map(([id, row]) => [id, { name: row.name, slug: slugs[kind].get(id) ?? '' }]));
  const lookup = mapLookup({ artist: named('artist', artists), label: named('label', labels), festival: named('festival', festivals) });

  const artistByMbid = new Map<string, number>();
  const artistBySpotify = new Map<string, number>();
  for (const row of data.artists) {
    if (row.mbid && !artistByMbid.has(row.mbid.toLowerCase())) artistByMbid.set(row.mbid.toLowerCase(), row.discogs_id);
    if (row.spotify_id && !artistBySpotify.has(row.spotify_id)) artistBySpotify.set(row.spotify_id, row.discogs_id);
  }

  const bandcamp = new Map<number, BandcampRow>();
  const artistByBandcampHost = new Map<string, number>();
  const bandcampReleaseByUrl: CatalogueIndex['bandcampReleaseByUrl'] = new Map();
  for (const row of data.bandcamp) {
    if (!artists.has(row.artist_discogs_id) || bandcamp.has(row.artist_discogs_id)) continue;
    bandcamp.set(row.artist_discogs_id, row);
    const host = bandcampHostOf(row.url);
    if (host && !artistByBandcampHost.has(host)) artistByBandcampHost.set(host, row.artist_discogs_id);
    for (const release of row.releases) bandcampReleaseByUrl.set(releaseUrlKey(release.url), { artistId: row.artist_discogs_id, release });
  }

  const masters = new Map(data.masters.map((row) => [row.master_id, row]));
  const releases = new Map(data.releases.map((row) => [row.release_id, row]));
  const releasesByMaster = new Map<number, ReleaseRow[]>();
  const creditedMastersByArtist = new Map<number, Set<number>>();
  for (const release of data.releases) {
    if (release.master_id === null || !masters.has(release.master_id)) continue;
    push(releasesByMaster, release.master_id, release);
    for (const credit of release.extra_artists) {
      const set = creditedMastersByArtist.get(credit.discogs_id);
      if (set) set.add(release.master_id);
      else creditedMastersByArtist.set(credit.discogs_id, new Set([release.master_id]));
    }
  }
  const mainMastersByArtist = new Map<number, MasterRow[]>();
  const mastersByLabel = new Map<number, MasterRow[]>();
  const entries: SearchEntry[] = [];
  for (const master of data.masters) {
    for (const artistId of new Set(master.artists.map((credit) => credit.discogs_id))) push(mainMastersByArtist, artistId, master);
    const main = master.main_release_id === null ? null : (releases.get(master.main_release_id) ?? null);
    const labelIds = new Set<number>();
    for (const credit of main?.labels ?? []) if (credit.discogs_id !== null) labelIds.add(credit.discogs_id);
    for (const labelId of labelIds) push(mastersByLabel, labelId, master);
    entries.push(
      masterSearchEntry(
        master,
        main,
        releasesByMaster.get(master.master_id)?.length ?? 0,
        (labelId) => {
          const label = labels.get(labelId);
          return label ? { slug: slugs.label.get(labelId) ?? null, name: label.name } : undefined;
        },
        (artistId) => slugs.artist.get(artistId) ?? null,
      ),
    );
  }
  const festivalsByArtist = new Map<number, FestivalRow[]>();
  for (const festival of data.festivals) {
    const lineup = new Set(festival.editions.flatMap((edition) => edition.lineup.map((slot) => slot.artist_discogs_id)));
    for (const artistId of lineup) push(festivalsByArtist, artistId, festival);
  }

  const signalArtists = new Map<number, SignalArtist>();
  for (const row of data.artists) {
    const clusterId = clusterIdOf('artist', row.discogs_id);
    const genre = mainGenreOf(mainMastersByArtist.get(row.discogs_id) ?? []);
    const observations = sortedObservations(bandcamp.get(row.discogs_id)?.observations ?? []);
    signalArtists.set(row.discogs_id, { cluster_id: clusterId, slug: slugs.artist.get(row.discogs_id) ?? '', name: row.name, genre, observations });
    entries.push(
      searchEntry(
        {
          type: 'artist',
          id: clusterId,
          slug: slugs.artist.get(row.discogs_id) ?? null,
          name: row.name,
          year: null,
          artists: [],
          genres: genre ? [genre] : [],
          styles: [],
        },
        row.name,
        [],
        [],
        mainMastersByArtist.get(row.discogs_id)?.length ?? 0,
        null,
      ),
    );
  }
  for (const row of data.labels) {
    entries.push(
      searchEntry(
        {
          type: 'label',
          id: clusterIdOf('label', row.discogs_id),
          slug: slugs.label.get(row.discogs_id) ?? null,
          name: row.name,
          year: null,
          artists: [],
          genres: [],
          styles: [],
        },
        row.name,
        [],
        [],
        mastersByLabel.get(row.discogs_id)?.length ?? 0,
        null,
      ),
    );
  }
  for (const row of data.festivals) {
    const lineup = new Set(row.editions.flatMap((edition) => edition.lineup.map((slot) => slot.artist_discogs_id)));
    entries.push(
      searchEntry(
        {
          type: 'festival',
          id: clusterIdOf('festival', row.festival_id),
          slug: slugs.festival.get(row.festival_id) ?? null,
          name: row.name,
          year: null,
          artists: [],
          genres: row.genres,
          styles: [],
        },
        row.name,
        [],
        row.genres,
        lineup.size,
        null,
      ),
    );
  }

  const mainReleases = data.masters.flatMap((master) => {
    const release = master.main_release_id === null ? undefined : releases.get(master.main_release_id);
    return release ? [release] : [];
  });
  const signals = computeSignals({
    artists: [...signalArtists.values()],
    tastemakers: [
      ...data.labels.map((row) => ({
        cluster_id: clusterIdOf('label', row.discogs_id),
        kind: 'label' as const,
        slug: slugs.label.get(row.discogs_id) ?? '',
        name: row.name,
      })),
      ...data.festivals.map((row) => ({
        cluster_id: clusterIdOf('festival', row.festival_id),
        kind: 'festival' as const,
        slug: slugs.festival.get(row.festival_id) ?? '',
        name: row.name,
      })),
    ],
    picks: [...labelPicksOf(data.masters, mainReleases), ...festivalPicksOf(data.festivals)],
  });

  // Built on first use: only a query that needs corrections reads it.
  let vocabulary: Map<string, number> | null = null;
  let vocabularyTrigrams: Map<string, Set<string>> | null = null;
  const buildVocabulary = () => {
    vocabulary = new Map();
    vocabularyTrigrams = new Map();
    for (const entry of entries) {
      for (const words of [entry.primary, entry.secondary]) {
        for (const word of words) {
          if (word.length < MIN_VOCABULARY_LENGTH) continue;
          vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
          if (!vocabularyTrigrams.has(word)) vocabularyTrigrams.set(word, trigramsOf(word));
        }
      }
    }
    return { vocabulary, vocabularyTrigrams };
  };

  return {
    vocabulary: () => vocabulary ?? buildVocabulary().vocabulary,
    vocabularyTrigrams: () => vocabularyTrigrams ?? buildVocabulary().vocabularyTrigrams,
    artists,
    labels,
    festivals,
    slugs,
    bySlug,
    lookup,
    artistByMbid,
    artistBySpotify,
    artistByBandcampHost,
    bandcamp,
    bandcampReleaseByUrl,
    masters,
    releases,
    releasesByMaster,
    mainMastersByArtist,
    creditedMastersByArtist,
    mastersByLabel,
    festivalsByArtist,
    signalArtists,
    signals,
    entries,
  };
}
