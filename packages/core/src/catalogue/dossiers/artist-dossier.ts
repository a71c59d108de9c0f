/** The artist dossier: identity, behavior, discography and Bandcamp facets. */
import { type ArtistRow, type BandcampRow, clusterIdOf, type FestivalRow, type MasterRow, type ReleaseRow } from '../../dataset.js';
import type { ArtistDossier, BandcampSignals } from '../../schemas/records.js';
import { locatorsOf } from '../locators.js';
import type { AgentLookup } from '../lookup.js';
import { round4 } from '../signals/metric.js';
import { byYearDescThenId, compareText, countInto, countValues, topCounts, yearRange } from './counting.js';
import { namedRefOf } from './named-refs.js';

export const TOP_GENRES = 5;
export const TOP_COLLABORATORS = 20;
export const MAX_DISCOGRAPHY = 500;

export interface ArtistDossierInput {
  artist: ArtistRow;
  slug: string;
  /**
   * Every master the artist is credited on: as a main artist (master.artists) or in the
   * extra_artists of any release of the master. Each master once.
   */
  masters: readonly MasterRow[];
  /** The main releases of those masters (other releases are ignored). */
  mainReleases: readonly ReleaseRow[];
  /** The festivals with an edition whose lineup lists the artist. */
  festivals: readonly FestivalRow[];
  bandcamp: BandcampRow | null;
  /** bandcampSignalsOf(...) for the artist, or null. */
  bandcampSignals: BandcampSignals | null;
  lookup: AgentLookup;
}

type Behavior = NonNullable<ArtistDossier['behavior']>;
type Discography = NonNullable<ArtistDossier['discography']>;

function isMainArtist(master: MasterRow, discogsId: number): boolean {
  return master.artists.some((credit) => credit.discogs_id === discogsId);
}

/**
 * Behavior is about the artist's own work: the "main masters" are those where it is a main
 * artist (master.artists).
 * - active_years: first / last master year of the main masters (unknown years ignored).
 * - releases_per_year: main masters per master year, ascending by year.
 * - top_genres / top_styles: top 5 by main-master count, ties alphabetical.
 * - label_loyalty: over main masters whose main release carries a label with a Discogs id;
 *   top_label = the label on most of them (ties: name, then cluster_id); share = masters on the
 *   top label / masters with any label (4 dp; 0 without labels); distinct_labels = labels seen.
 * - collaborators: other artists credited on any of the artist's masters (master.artists and
 *   the main release's extra_artists), counted once per master; top 20 by count desc, then
 *   name asc, then cluster_id asc; name = the canonical name when known, else the credited one.
 * - festival_appearances: one per festival edition listing the artist, year desc, then name.
 */
export function artistBehaviorOf(input: ArtistDossierInput): Behavior {
  const id = input.artist.discogs_id;
  const main = input.masters.filter((master) => isMainArtist(master, id));
  const releaseById = new Map(input.mainReleases.map((release) => [release.release_id, release]));
  const mainReleaseOf = (master: MasterRow) => (master.main_release_id === null ? undefined : releaseById.get(master.main_release_id));

  const perYear = new Map<number, number>();
  for (const master of main) if (master.year !== null) countInto(perYear, master.year);

  const labelCounts = new Map<number, number>();
  const labelNames = new Map<number, string>();
  let mastersWithLabel = 0;
  for (const master of main) {
    const labelIds = new Set<number>();
    for (const label of mainReleaseOf(master)?.labels ?? []) {
      if (label.discogs_id === null) continue;
      labelIds.add(label.discogs_id);
      if (!labelNames.has(label.discogs_id)) labelNames.set(label.discogs_id, input.lookup.name('label', label.discogs_id) ?? label.name);
    }
    if (labelIds.size > 0) mastersWithLabel += 1;
    for (const labelId of labelIds) countInto(labelCounts, labelId);
  }
  const rankedLabels = [...labelCounts].sort(
    ([a, countA], [b, countB]) => countB - countA || compareText(labelNames.get(a) ?? '', labelNames.get(b) ?? '') || a - b,
  );
  const topLabel = rankedLabels[0]?.[0] ?? null;

  const collaboratorCounts = new Map<number, number>();
  const collaboratorNames = new Map<number, string>();
  for (const master of input.masters) {
    const credited = new Map<number, string>();
    for (const credit of [...master.artists, ...(mainReleaseOf(master)?.extra_artists ?? [])]) {
      if (credit.discogs_id !== id && !credited.has(credit.discogs_id)) credited.set(credit.discogs_id, credit.name);
    }
    for (const [otherId, name] of credited) {
      countInto(collaboratorCounts, otherId);
      if (!collaboratorNames.has(otherId)) collaboratorNames.set(otherId, input.lookup.name('artist', otherId) ?? name);
    }
  }
  const collaborators = [...collaboratorCounts]
    .map(([otherId, count]) => ({
      cluster_id: clusterIdOf('artist', otherId),
      slug: input.lookup.slug('artist', otherId),
      name: collaboratorNames.get(otherId) ?? '',
      count,
    }))
    .sort((a, b) => b.count - a.count || compareText(a.name, b.name) || a.cluster_id - b.cluster_id)
    .slice(0, TOP_COLLABORATORS);

  const festivalAppearances: Behavior['festival_appearances'] = [];
  for (const festival of input.festivals) {
    const slug = input.lookup.slug('festival', festival.festival_id);
    if (slug === null) continue;
    for (const edition of festival.editions) {
      const slot = edition.lineup.find((entry) => entry.artist_discogs_id === id);
      if (slot)
        festivalAppearances.push({
          cluster_id: clusterIdOf('festival', festival.festival_id),
          slug,
          name: festival.name,
          year: edition.year,
          billing: slot.billing,
        });
    }
  }
  festivalAppearances.sort((a, b) => b.year - a.year || compareText(a.name, b.name) || a.cluster_id - b.cluster_id);

  return {
    active_years: yearRange(main.map((master) => master.year)),
    releases_per_year: [...perYear].map(([year, count]) => ({ year, count })).sort((a, b) => a.year - b.year),
    top_genres: topCounts(
      countValues(main, (master) => master.genres),
      TOP_GENRES,
    ),
    top_styles: topCounts(
      countValues(main, (master) => master.styles),
      TOP_GENRES,
    ),
    label_loyalty: {
      top_label:
        topLabel === null
          ? null
          : { cluster_id: clusterIdOf('label', topLabel), slug: input.lookup.slug('label', topLabel), name: labelNames.get(topLabel) ?? '' },
      share: topLabel === null || mastersWithLabel === 0 ? 0 : round4((labelCounts.get(topLabel) ?? 0) / mastersWithLabel),
      distinct_labels: labelCounts.size,
    },
    collaborators,
    festival_appearances: festivalAppearances,
  };
}

/**
 * role 'main' when the artist is in master.artists, else 'appearance' (an extra_artists
 * credit); sorted by year desc (unknown last) then master_id; at most 500; counts are totals.
 */
export function artistDiscographyOf(artist: ArtistRow, masters: readonly MasterRow[]): Discography {
  const entries = masters.map((master) => ({
    master_id: master.master_id,
    title: master.title,
    year: master.year,
    role: isMainArtist(master, artist.discogs_id) ? 'main' : 'appearance',
    genres: master.genres,
    styles: master.styles,
  }));
  const main = entries.filter((entry) => entry.role === 'main').length;
  return {
    counts: { masters: entries.length, main, appearances: entries.length - main },
    masters: entries.sort(byYearDescThenId).slice(0, MAX_DISCOGRAPHY),
  };
}

export function artistDossierOf(input: ArtistDossierInput): ArtistDossier {
  const { artist, lookup } = input;
  return {
    cluster_id: clusterIdOf('artist', artist.discogs_id),
    kind: 'artist',
    slug: input.slug,
    name: artist.name,
    identity: {
      name: artist.name,
      real_name: artist.real_name,
      name_variations: artist.name_variations,
      aliases: artist.aliases.map((ref) => namedRefOf('artist', ref, lookup)),
      members: artist.members.map((ref) => namedRefOf('artist', ref, lookup)),
      groups: artist.groups.map((ref) => namedRefOf('artist', ref, lookup)),
      profile: artist.profile,
      data_quality: artist.data_quality,
      locators: locatorsOf({
        kind: 'artist',
        discogsId: artist.discogs_id,
        mbid: artist.mbid,
        spotifyId: artist.spotify_id,
        urls: artist.urls,
        bandcampUrl: input.bandcamp?.url ?? null,
      }),
    },
    behavior: artistBehaviorOf(input),
    discography: artistDiscographyOf(artist, input.masters),
    bandcamp: input.bandcampSignals,
  };
}
