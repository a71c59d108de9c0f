/**
 * All signals at once. They are global (genre baselines, tastemaker rankings), so both
 * catalogue implementations compute them from the full per-artist series and pick lists,
 * once per data load, and serve queries from the result.
 */

import type { BreakoutWindow } from '../../ports/index.js';
import type { Breakout, OneToWatch, Tastemaker } from '../../schemas/records.js';
import { breakoutsOf } from './breakouts.js';
import { firstBreakoutOn } from './first-breakout.js';
import { asOfDate } from './metric.js';
import { onesToWatchOf } from './ones-to-watch.js';
import type { Pick } from './picks.js';
import { matchesGenre, type SignalArtist } from './signal-artist.js';
import { countedPicks, rankTastemakers, type TastemakerInfo, type TastemakerStanding, tastemakerList } from './tastemakers.js';

export interface SignalInputs {
  /** Every artist with a Bandcamp series (observations in date order); others may be included with an empty series. */
  artists: readonly SignalArtist[];
  tastemakers: readonly TastemakerInfo[];
  /** All picks (labelPicksOf + festivalPicksOf); uncounted ones are dropped here. */
  picks: readonly Pick[];
}

export interface Signals {
  asOf: string | null;
  breakouts: Record<BreakoutWindow, Breakout[]>;
  firstBreakouts: Map<number, string | null>;
  standings: TastemakerStanding[];
  onesToWatch: OneToWatch[];
}

export const WINDOW_DAYS: Record<BreakoutWindow, number> = { '30d': 30, '90d': 90 };

export function computeSignals(inputs: SignalInputs): Signals {
  const withSeries = inputs.artists.filter((artist) => artist.observations.length > 0);
  const asOf = asOfDate(withSeries.map((artist) => artist.observations));
  const firstBreakouts = new Map(withSeries.map((artist) => [artist.cluster_id, firstBreakoutOn(artist.observations)]));
  const breakouts = { '30d': breakoutsOf(withSeries, asOf, 30), '90d': breakoutsOf(withSeries, asOf, 90) };
  const picks = countedPicks(inputs.picks, firstBreakouts, asOf);
  const standings = rankTastemakers(inputs.tastemakers, picks, firstBreakouts);
  const onesToWatch = onesToWatchOf({
    asOf,
    standings,
    picks,
    artists: new Map(withSeries.map((artist) => [artist.cluster_id, artist])),
    firstBreakouts,
    breakoutIds: new Set([...breakouts['30d'], ...breakouts['90d']].map((breakout) => breakout.cluster_id)),
  });
  return { asOf, breakouts, firstBreakouts, standings, onesToWatch };
}

export function breakoutsQuery(
  signals: Signals,
  query: { window: BreakoutWindow; genre: string | null; limit: number },
): { as_of: string | null; items: Breakout[] } {
  const items = signals.breakouts[query.window].filter((breakout) => matchesGenre(breakout.genre, query.genre)).slice(0, query.limit);
  return { as_of: signals.asOf, items };
}

export function tastemakersQuery(signals: Signals, query: { kind: 'label' | 'festival' | null; limit: number }): { as_of: string | null; items: Tastemaker[] } {
  return { as_of: signals.asOf, items: tastemakerList(signals.standings, query.kind, query.limit) };
}

export function onesToWatchQuery(signals: Signals, query: { genre: string | null; limit: number }): { as_of: string | null; items: OneToWatch[] } {
  const items = signals.onesToWatch.filter((item) => matchesGenre(item.genre, query.genre)).slice(0, query.limit);
  return { as_of: signals.asOf, items };
}
