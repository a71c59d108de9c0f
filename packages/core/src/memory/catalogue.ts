/**
 * The in-memory Catalogue: indexes a CatalogueData once, then answers every port call from
 * maps. Record assembly and signal formulas come from `catalogue/`, which the PostgreSQL
 * adapter calls too, so both implementations answer identically.
 */

import { artistDossierOf } from '../catalogue/dossiers/artist-dossier.js';
import { compareText } from '../catalogue/dossiers/counting.js';
import { festivalDossierOf } from '../catalogue/dossiers/festival-dossier.js';
import { labelDossierOf } from '../catalogue/dossiers/label-dossier.js';
import { masterDossierOf, releasesOf } from '../catalogue/dossiers/master-dossier.js';
import { locatorsOf, releaseUrlKey } from '../catalogue/locators.js';
import { masterRecordOf } from '../catalogue/master-record.js';
import {
  comparePositions,
  facetValuesOf,
  hasAnyFilter,
  type MasterFacetValues,
  type MatchMode,
  matchesFilters,
  pointsOf,
  type SearchEntry,
  scoreOf,
  searchTextOf,
  TYPE_ORDER,
  withCorrections,
} from '../catalogue/search.js';
import { bandcampSignalsOf } from '../catalogue/signals/bandcamp-signals.js';
import { breakoutsQuery, onesToWatchQuery, tastemakersQuery } from '../catalogue/signals/engine.js';
import { nameKey, tokensOf } from '../catalogue/text.js';
import { correctablePositions, correctedOf, correctionsAffordable, correctionsAmong, memoryCandidatesOf } from '../catalogue/typos.js';
import { type CatalogueData, clusterIdOf, kindOfClusterId, type MasterRow, sourceIdOfClusterId } from '../dataset.js';
import { abortProbeOf, requestAborted } from '../http/deadline.js';
import type {
  AgentIdentity,
  AgentKey,
  BandcampManifest,
  BandcampReleaseData,
  CallOptions,
  Catalogue,
  FacetsResult,
  ResolveInput,
  SearchPage,
  SearchQuery,
} from '../ports/index.js';
import type { AgentKind, ClusterData, FacetValue, MasterData, SearchHitData } from '../schemas/records.js';
import { buildCatalogueIndex, type CatalogueIndex, mainReleaseOf } from './catalogue-index.js';

const AGENT_KINDS: AgentKind[] = ['artist', 'label', 'festival'];

/**
 * Refuses a call whose request ended. The service's lifetime answers `aborted` without making
 * its AbortSignal (an AbortController and a listener per request, issue 14); a caller's own
 * `{ signal }` throws its own reason, as before.
 */
function checkSignal(lifetime?: CallOptions): void {
  const probe = abortProbeOf(lifetime);
  if (!probe?.aborted) return;
  if (probe === lifetime) throw requestAborted();
  lifetime?.signal?.throwIfAborted();
}

/** The source id of an agent present in the data, or null. */
function sourceIdIn(index: CatalogueIndex, kind: AgentKind, sourceId: number): number | null {
  const rows = kind === 'artist' ? index.artists : kind === 'label' ? index.labels : index.festivals;
  return rows.has(sourceId) ? sourceId : null;
}

function identityOf(index: CatalogueIndex, kind: AgentKind, sourceId: number): AgentIdentity | null {
  if (sourceIdIn(index, kind, sourceId) === null) return null;
  return { kind, cluster_id: clusterIdOf(kind, sourceId), slug: index.slugs[kind].get(sourceId) ?? '', name: index.lookup.name(kind, sourceId) ?? '' };
}

function clusterOf(index: CatalogueIndex, kind: AgentKind, sourceId: number): ClusterData | null {
  const identity = identityOf(index, kind, sourceId);
  if (!identity) return null;
  let locators: ClusterData['locators'];
  if (kind === 'artist') {
    const row = index.artists.get(sourceId);
    locators = row
      ? locatorsOf({
          kind,
          discogsId: sourceId,
          mbid: row.mbid,
          spotifyId: row.spotify_id,
          urls: row.urls,
          bandcampUrl: index.bandcamp.get(sourceId)?.url ?? null,
        })
      : [];
  } else if (kind === 'label') {
    locators = locatorsOf({ kind, discogsId: sourceId, urls: index.labels.get(sourceId)?.urls ?? [] });
  } else {
    const url = index.festivals.get(sourceId)?.url;
    locators = locatorsOf({ kind, discogsId: null, urls: url ? [url] : [] });
  }
  return { cluster_id: identity.cluster_id, kind, slug: identity.slug, name: identity.name, locators };
}

/** Masters an agent has: main masters for artists, label masters for labels, lineup size for festivals. */
function sizeOf(index: CatalogueIndex, kind: AgentKind, sourceId: number): number {
  if (kind === 'artist') return index.mainMastersByArtist.get(sourceId)?.length ?? 0;
  if (kind === 'label') return index.mastersByLabel.get(sourceId)?.length ?? 0;
  return 0;
}

// Assembled master records, built on first read: the data never changes after indexing, and
// callers only spread the record, never mutate it.
const assembled = new WeakMap<MasterRow, MasterData>();

function masterData(index: CatalogueIndex, master: MasterRow): MasterData {
  let record = assembled.get(master);
  if (!record) {
    record = masterRecordOf(master, mainReleaseOf(index, master), index.lookup);
    assembled.set(master, record);
  }
  return record;
}

function agentSourceId(entry: SearchEntry): { kind: AgentKind; sourceId: number } | null {
  const kind = kindOfClusterId(entry.hit.id);
  return entry.hit.type === 'master' || kind === null ? null : { kind, sourceId: sourceIdOfClusterId(entry.hit.id) };
}

export function createMemoryCatalogue(data: CatalogueData): Catalogue {
  const index = buildCatalogueIndex(data);

  /** Facet values of the masters matching q and filters. */
  function matchingMasters(q: string | null, filters: SearchQuery['filters']): MasterFacetValues[] {
    const text = searchTextOf(q);
    const matches: MasterFacetValues[] = [];
    for (const entry of index.entries) {
      if (entry.hit.type !== 'master' || !entry.facets || !matchesFilters(entry.facets, filters)) continue;
      if (scoreOf(entry, text) !== null) matches.push(entry.facets);
    }
    return matches;
  }

  function findAgentSync(key: AgentKey, kind: AgentKind | null): AgentIdentity | null {
    switch (key.by) {
      case 'cluster_id': {
        const found = kindOfClusterId(key.cluster_id);
        if (found === null || (kind !== null && found !== kind)) return null;
        return identityOf(index, found, sourceIdOfClusterId(key.cluster_id));
      }
      case 'slug': {
        for (const candidate of kind ? [kind] : AGENT_KINDS) {
          const id = index.bySlug[candidate].get(key.slug);
          if (id !== undefined) return identityOf(index, candidate, id);
        }
        return null;
      }
      case 'discogs':
        // festivals have no Discogs id
        return kind === 'festival' ? null : identityOf(index, kind ?? 'artist', key.id);
      case 'mbid': {
        if (kind !== null && kind !== 'artist') return null;
        const id = index.artistByMbid.get(key.mbid.toLowerCase());
        return id === undefined ? null : identityOf(index, 'artist', id);
      }
    }
  }

  /**
   * q: exact name (folded, tokens joined) first, preferring artist, then label, then festival,
   * then more masters, then lower cluster_id; else the best prefix match over agents by search
   * score, then type, then cluster_id.
   */
  function resolveByName(q: string): ClusterData | null {
    const key = nameKey(q);
    if (key === '') return null;
    const text = searchTextOf(q);
    let exact: { kind: AgentKind; sourceId: number; size: number; clusterId: number } | null = null;
    let best: { entry: SearchEntry; score: number } | null = null;
    for (const entry of index.entries) {
      const agent = agentSourceId(entry);
      if (!agent) continue;
      if (entry.nameKey === key) {
        const candidate = { ...agent, size: sizeOf(index, agent.kind, agent.sourceId), clusterId: entry.hit.id };
        if (!exact || (TYPE_ORDER[candidate.kind] - TYPE_ORDER[exact.kind] || exact.size - candidate.size || candidate.clusterId - exact.clusterId) < 0) {
          exact = candidate;
        }
        continue;
      }
      const score = scoreOf(entry, text);
      if (score === null) continue;
      const position = { score, type: entry.hit.type, id: entry.hit.id };
      if (!best || comparePositions(position, { score: best.score, type: best.entry.hit.type, id: best.entry.hit.id }) < 0) best = { entry, score };
    }
    if (exact) return clusterOf(index, exact.kind, exact.sourceId);
    const agent = best ? agentSourceId(best.entry) : null;
    return agent ? clusterOf(index, agent.kind, agent.sourceId) : null;
  }

  function bandcampArtistSync(artistId: number) {
    const row = index.bandcamp.get(artistId);
    const artist = index.signalArtists.get(artistId);
    return row && artist ? bandcampSignalsOf(artist, row, index.signals.asOf) : null;
  }

  /** The corrections of the query's correctable words (catalogue/typos.ts), by position. */
  function correctionsOf(tokens: readonly string[]): Map<number, string[]> {
    const corrections = new Map<number, string[]>();
    for (const position of correctablePositions(tokens)) {
      const word = tokens[position] as string;
      const found = correctionsAmong(word, memoryCandidatesOf(word, index.vocabulary(), index.vocabularyTrigrams()));
      if (found.length > 0) corrections.set(position, found);
    }
    return correctionsAffordable(tokens, corrections, (word) => index.vocabulary().get(word) ?? 0) ? corrections : new Map();
  }

  async function searchPage(query: SearchQuery, lifetime?: CallOptions): Promise<SearchPage> {
    checkSignal(lifetime);
    let text = searchTextOf(query.q);
    const filtered = hasAnyFilter(query.filters);
    const candidates = index.entries.filter(
      (entry) =>
        (query.type === 'all' || entry.hit.type === query.type) &&
        // facet filters narrow masters; other kinds have no facet values to match
        (!filtered || (entry.facets !== null && matchesFilters(entry.facets, query.filters))),
    );
    const complete = () => candidates.some((entry) => pointsOf(entry, text, 'all') !== null);
    // Entries with some of the words are hits only when none has them all (catalogue/search.ts);
    // before that, the words corrected ("Typos"), when none has them all as typed.
    let mode: MatchMode = 'all';
    let corrections = new Map<number, string[]>();
    if (text.tokens.length > 0 && !complete()) {
      corrections = correctionsOf(text.tokens);
      if (corrections.size > 0) text = withCorrections(text, corrections);
      if (corrections.size === 0 || !complete()) mode = 'some';
    }
    const hits: SearchHitData[] = [];
    for (const entry of candidates) {
      const score = scoreOf(entry, text, mode);
      if (score === null) continue;
      const hit = { ...entry.hit, score };
      if (query.after && comparePositions(hit, query.after) <= 0) continue;
      hits.push(hit);
    }
    hits.sort(comparePositions);
    const page = hits.slice(0, query.limit);
    return { hits: page, corrected: correctedOf(text.tokens, corrections, page, tokensOf) };
  }

  return {
    async search(query, lifetime) {
      return (await searchPage(query, lifetime)).hits;
    },

    searchPage,

    async facets(query, lifetime): Promise<FacetsResult> {
      checkSignal(lifetime);
      const matches = matchingMasters(query.q, query.filters);
      const facets: FacetsResult['facets'] = {};
      for (const name of query.facets) {
        const counts = new Map<string | number, number>();
        for (const facets of matches) {
          for (const value of facetValuesOf(facets, name)) counts.set(value, (counts.get(value) ?? 0) + 1);
        }
        const values: FacetValue[] = [...counts].map(([value, count]) => ({ value, count }));
        values.sort(
          (a, b) =>
            b.count - a.count ||
            (typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : compareText(String(a.value), String(b.value))),
        );
        facets[name] = values.slice(0, query.limit);
      }
      return { total: matches.length, facets };
    },

    async master(id) {
      const master = index.masters.get(id);
      return master ? masterData(index, master) : null;
    },

    async masters(ids) {
      return [...new Set(ids)].flatMap((id) => {
        const master = index.masters.get(id);
        return master ? [masterData(index, master)] : [];
      });
    },

    async masterDossier(id) {
      const master = index.masters.get(id);
      if (!master) return null;
      const firstArtist = master.artists[0];
      return masterDossierOf({
        master,
        releases: index.releasesByMaster.get(id) ?? [],
        artistMasters: firstArtist ? (index.mainMastersByArtist.get(firstArtist.discogs_id) ?? []) : [],
        lookup: index.lookup,
      });
    },

    async masterDetails(ids) {
      return [...new Set(ids)].flatMap((id) => {
        const master = index.masters.get(id);
        return master ? [{ master: masterData(index, master), ...releasesOf(index.releasesByMaster.get(id) ?? [], index.lookup) }] : [];
      });
    },

    async findAgent(key, kind) {
      return findAgentSync(key, kind);
    },

    async artistDossier(clusterId) {
      if (kindOfClusterId(clusterId) !== 'artist') return null;
      const id = sourceIdOfClusterId(clusterId);
      const artist = index.artists.get(id);
      if (!artist) return null;
      const masterIds = new Set([
        ...(index.mainMastersByArtist.get(id) ?? []).map((master) => master.master_id),
        ...(index.creditedMastersByArtist.get(id) ?? []),
      ]);
      const masters = [...masterIds].flatMap((masterId) => {
        const master = index.masters.get(masterId);
        return master ? [master] : [];
      });
      return artistDossierOf({
        artist,
        slug: index.slugs.artist.get(id) ?? '',
        masters,
        mainReleases: masters.flatMap((master) => {
          const release = mainReleaseOf(index, master);
          return release ? [release] : [];
        }),
        festivals: index.festivalsByArtist.get(id) ?? [],
        bandcamp: index.bandcamp.get(id) ?? null,
        bandcampSignals: bandcampArtistSync(id),
        lookup: index.lookup,
      });
    },

    async labelDossier(clusterId) {
      if (kindOfClusterId(clusterId) !== 'label') return null;
      const id = sourceIdOfClusterId(clusterId);
      const label = index.labels.get(id);
      if (!label) return null;
      const masters = index.mastersByLabel.get(id) ?? [];
      return labelDossierOf({
        label,
        slug: index.slugs.label.get(id) ?? '',
        masters,
        mainReleases: masters.flatMap((master) => {
          const release = mainReleaseOf(index, master);
          return release ? [release] : [];
        }),
        lookup: index.lookup,
      });
    },

    async festivalDossier(clusterId) {
      if (kindOfClusterId(clusterId) !== 'festival') return null;
      const id = sourceIdOfClusterId(clusterId);
      const festival = index.festivals.get(id);
      return festival ? festivalDossierOf(festival, index.slugs.festival.get(id) ?? '', index.lookup) : null;
    },

    async resolve(input: ResolveInput) {
      switch (input.by) {
        case 'q':
          return resolveByName(input.q);
        case 'discogs': {
          if (input.kind !== 'master') return clusterOf(index, input.kind, input.id);
          const first = index.masters.get(input.id)?.artists[0];
          return first ? clusterOf(index, 'artist', first.discogs_id) : null;
        }
        case 'mbid': {
          const id = index.artistByMbid.get(input.mbid.toLowerCase());
          return id === undefined ? null : clusterOf(index, 'artist', id);
        }
        case 'bandcamp': {
          const id = index.artistByBandcampHost.get(input.host.toLowerCase());
          return id === undefined ? null : clusterOf(index, 'artist', id);
        }
        case 'spotify': {
          const id = index.artistBySpotify.get(input.id);
          return id === undefined ? null : clusterOf(index, 'artist', id);
        }
      }
    },

    async bandcampArtist(clusterId) {
      return kindOfClusterId(clusterId) === 'artist' ? bandcampArtistSync(sourceIdOfClusterId(clusterId)) : null;
    },

    async bandcampManifest(query): Promise<BandcampManifest> {
      const tag = query.tag?.toLowerCase() ?? null;
      const artists: BandcampManifest['artists'] = [];
      const ordered = [...index.bandcamp.keys()].map((id) => clusterIdOf('artist', id)).sort((a, b) => a - b);
      for (const clusterId of ordered) {
        if (artists.length >= query.limit) break;
        if (query.after !== null && clusterId <= query.after) continue;
        const id = sourceIdOfClusterId(clusterId);
        const row = index.bandcamp.get(id);
        const artist = index.signalArtists.get(id);
        const latest = artist?.observations[artist.observations.length - 1];
        if (!row || !artist || !latest) continue;
        if (tag !== null && !row.releases.some((release) => release.tags.some((t) => t.toLowerCase() === tag))) continue;
        artists.push({ cluster_id: clusterId, slug: artist.slug, name: artist.name, url: row.url, followers: latest.followers, supporters: latest.supporters });
      }
      return { as_of: index.signals.asOf, artists };
    },

    async bandcampReleases(query): Promise<BandcampReleaseData | null> {
      let artistId: number;
      let releases: BandcampReleaseData['releases'];
      if (query.by === 'url') {
        const found = index.bandcampReleaseByUrl.get(releaseUrlKey(query.url));
        if (!found) return null;
        artistId = found.artistId;
        releases = [found.release];
      } else {
        if (kindOfClusterId(query.cluster_id) !== 'artist') return null;
        artistId = sourceIdOfClusterId(query.cluster_id);
        const row = index.bandcamp.get(artistId);
        if (!row) return null;
        releases = row.releases;
      }
      const identity = identityOf(index, 'artist', artistId);
      if (!identity) return null;
      return {
        artist: { cluster_id: identity.cluster_id, slug: identity.slug, name: identity.name },
        releases: releases.map((release) => ({ title: release.title, url: release.url, released: release.released, tags: release.tags })),
      };
    },

    async breakouts(query) {
      return breakoutsQuery(index.signals, query);
    },

    async tastemakers(query) {
      return tastemakersQuery(index.signals, query);
    },

    async onesToWatch(query) {
      return onesToWatchQuery(index.signals, query);
    },
  };
}
