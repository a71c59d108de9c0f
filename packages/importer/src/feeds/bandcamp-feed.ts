import type { BandcampRow } from '@catalogue/core';
import type { ByteInput } from '../discogs/input-chunks.js';
import { type FeedFormat, type ParseFeedOptions, parseFeed } from './parse-feed.js';
import { type BandcampLine, BandcampLineSchema } from './schemas.js';

/**
 * Lines of one artist → one BandcampRow. Lines are folded in date order, so for a repeated date
 * and for a release listed on several dates the latest line wins; the url is the latest one.
 */
export function bandcampRowOf(lines: BandcampLine[]): BandcampRow {
  const byDate = [...lines].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const observations = new Map<string, BandcampRow['observations'][number]>();
  const releases = new Map<string, BandcampRow['releases'][number]>();
  for (const line of byDate) {
    observations.set(line.date, { date: line.date, followers: line.followers, supporters: line.supporters });
    for (const release of line.releases) {
      releases.set(release.url, { title: release.title, url: release.url, released: release.released, tags: release.tags });
    }
  }
  const latest = byDate.at(-1) as BandcampLine;
  return {
    artist_discogs_id: latest.artist_discogs_id,
    url: latest.url,
    observations: [...observations.values()],
    releases: [...releases.values()],
  };
}

export const BANDCAMP_FEED: FeedFormat<BandcampLine, BandcampRow> = {
  name: 'bandcamp',
  schema: BandcampLineSchema,
  keyOf: (line) => line.artist_discogs_id,
  keyName: 'artist_discogs_id',
  toRow: bandcampRowOf,
};

/** Streams a Bandcamp JSONL feed (format in the package README) as batches of BandcampRow. */
export function parseBandcampFeed(chunks: ByteInput, options: ParseFeedOptions = {}): AsyncGenerator<BandcampRow[], void, undefined> {
  return parseFeed(chunks, BANDCAMP_FEED, options);
}
