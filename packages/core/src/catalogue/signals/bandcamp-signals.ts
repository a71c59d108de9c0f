/** The Bandcamp facet of an artist (BandcampSignalsSchema). */
import type { BandcampRow } from '../../dataset.js';
import type { BandcampSignals } from '../../schemas/records.js';
import { relativeGrowth } from './ones-to-watch.js';
import type { SignalArtist } from './signal-artist.js';

export const SERIES_POINTS = 12;
export const TOP_TAGS = 10;

/** Tag counts over releases (a release counts a tag once), count desc then tag asc, top 10. */
export function tagCountsOf(releases: BandcampRow['releases']): Array<{ name: string; count: number }> {
  const counts = new Map<string, number>();
  for (const release of releases) for (const tag of new Set(release.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, TOP_TAGS);
}

/**
 * followers / supporters of the latest observation; series = the last 12 observations in date
 * order; growth.d30 / d90 = m(as_of)/m(as_of − W) − 1 (4 dp), null without both points;
 * as_of = the catalogue's as_of. Null when the artist has no observation.
 * `artist.observations` must be the row's observations in date order.
 */
export function bandcampSignalsOf(artist: SignalArtist, row: BandcampRow, asOf: string | null): BandcampSignals | null {
  const latest = artist.observations[artist.observations.length - 1];
  if (!latest || asOf === null) return null;
  return {
    cluster_id: artist.cluster_id,
    slug: artist.slug,
    name: artist.name,
    url: row.url,
    as_of: asOf,
    followers: latest.followers,
    supporters: latest.supporters,
    releases: row.releases.map((release) => ({ title: release.title, url: release.url, released: release.released, tags: release.tags })),
    tags: tagCountsOf(row.releases),
    series: artist.observations.slice(-SERIES_POINTS).map((point) => ({ date: point.date, followers: point.followers, supporters: point.supporters })),
    growth: { d30: relativeGrowth(artist, asOf, 30), d90: relativeGrowth(artist, asOf, 90) },
  };
}
