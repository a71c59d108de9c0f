/** Breakouts, tastemakers and ones-to-watch, served from the tables finish() precomputed. */
import type { AbortProbe, Breakout, BreakoutsQuery, OnesToWatchQuery, OneToWatch, Tastemaker, TastemakersQuery } from '@catalogue/core';
import { type TastemakerStanding, tastemakerList } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { BandcampReads } from './bandcamp.js';
import type { Reader } from './reader.js';

type Listing<T> = Promise<{ as_of: string | null; items: T[] }>;

export async function breakoutList(sql: Sql, read: Reader, bandcamp: BandcampReads, query: BreakoutsQuery, abort?: AbortProbe): Listing<Breakout> {
  const genre = query.genre?.toLowerCase() ?? null;
  const [asOf, rows] = await Promise.all([
    bandcamp.asOf(abort),
    read(
      abort,
      () => sql<Array<{ item: Breakout }>>`
      SELECT item FROM signal_breakouts
      WHERE window_days = ${query.window === '30d' ? 30 : 90} ${genre === null ? sql`` : sql`AND genre_key = ${genre}`}
      ORDER BY position LIMIT ${query.limit}`,
    ),
  ]);
  return { as_of: asOf, items: rows.map((row) => row.item) };
}

export async function tastemakerRanking(sql: Sql, read: Reader, bandcamp: BandcampReads, query: TastemakersQuery, abort?: AbortProbe): Listing<Tastemaker> {
  const [asOf, rows] = await Promise.all([
    bandcamp.asOf(abort),
    read(
      abort,
      () => sql<Array<{ standing: TastemakerStanding }>>`
      SELECT standing FROM signal_tastemakers
      ${query.kind === null ? sql`` : sql`WHERE kind = ${query.kind}`}
      ORDER BY position LIMIT ${query.limit}`,
    ),
  ]);
  // Filtered by kind in SQL already; tastemakerList ranks within what is returned, as core does.
  return {
    as_of: asOf,
    items: tastemakerList(
      rows.map((row) => row.standing),
      query.kind,
      query.limit,
    ),
  };
}

export async function onesToWatchList(sql: Sql, read: Reader, bandcamp: BandcampReads, query: OnesToWatchQuery, abort?: AbortProbe): Listing<OneToWatch> {
  const genre = query.genre?.toLowerCase() ?? null;
  const [asOf, rows] = await Promise.all([
    bandcamp.asOf(abort),
    read(
      abort,
      () => sql<Array<{ item: OneToWatch }>>`
      SELECT item FROM signal_ones_to_watch
      ${genre === null ? sql`` : sql`WHERE genre_key = ${genre}`}
      ORDER BY position LIMIT ${query.limit}`,
    ),
  ]);
  return { as_of: asOf, items: rows.map((row) => row.item) };
}
