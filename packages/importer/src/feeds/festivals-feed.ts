import type { FestivalRow } from '@catalogue/core';
import type { ByteInput } from '../discogs/input-chunks.js';
import { type FeedFormat, type ParseFeedOptions, parseFeed } from './parse-feed.js';
import { type FestivalLine, FestivalLineSchema } from './schemas.js';

/**
 * Editions of one festival → one FestivalRow, editions by year. The festival's own fields come
 * from its latest edition; a repeated year keeps the later line.
 */
export function festivalRowOf(lines: FestivalLine[]): FestivalRow {
  const editions = new Map<number, FestivalLine>();
  for (const line of lines) editions.set(line.edition.year, line);
  const byYear = [...editions.values()].sort((a, b) => a.edition.year - b.edition.year);
  const latest = byYear.at(-1) as FestivalLine;
  return {
    festival_id: latest.festival_id,
    name: latest.name,
    country: latest.country,
    city: latest.city,
    url: latest.url,
    genres: latest.genres,
    editions: byYear.map(({ edition }) => ({
      year: edition.year,
      starts_on: edition.starts_on,
      lineup: edition.lineup.map((slot) => ({ artist_discogs_id: slot.artist_discogs_id, billing: slot.billing })),
    })),
  };
}

export const FESTIVALS_FEED: FeedFormat<FestivalLine, FestivalRow> = {
  name: 'festivals',
  schema: FestivalLineSchema,
  keyOf: (line) => line.festival_id,
  keyName: 'festival_id',
  toRow: festivalRowOf,
};

/** Streams a festivals JSONL feed (format in the package README) as batches of FestivalRow. */
export function parseFestivalsFeed(chunks: ByteInput, options: ParseFeedOptions = {}): AsyncGenerator<FestivalRow[], void, undefined> {
  return parseFeed(chunks, FESTIVALS_FEED, options);
}
