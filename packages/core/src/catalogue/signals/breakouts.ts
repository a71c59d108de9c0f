/** Breakouts: artists whose growth over a window is far above their own and their genre's. */
import type { Breakout } from '../../schemas/records.js';
import { BASELINE_FLOOR } from './first-breakout.js';
import { round4, type WindowGrowth, windowGrowth } from './metric.js';
import { median, type SignalArtist } from './signal-artist.js';

export const BREAKOUT_MIN_BASE = 50;
export const BREAKOUT_MIN_GROWTH = Math.log(1.25);

/**
 * Every breakout for a window of `windowDays`, best first (see signals/README.md):
 * eligible, m_then ≥ 50, g ≥ ln 1.25 and g ≥ 2·max(b, gb, ln 1.05); score = g − max(b, gb);
 * ordered by score desc, then cluster_id asc. gb is the median g of the eligible artists with
 * the same main genre (artists without one form their own group). Empty when as_of is null.
 */
export function breakoutsOf(artists: readonly SignalArtist[], asOf: string | null, windowDays: number): Breakout[] {
  if (asOf === null) return [];
  const eligible: Array<{ artist: SignalArtist; window: WindowGrowth & { growth: number; baseline: number } }> = [];
  const growthsByGenre = new Map<string | null, number[]>();
  for (const artist of artists) {
    const window = windowGrowth(artist.observations, asOf, windowDays);
    if (!window.eligible || window.growth === null || window.baseline === null) continue;
    eligible.push({ artist, window: window as WindowGrowth & { growth: number; baseline: number } });
    const growths = growthsByGenre.get(artist.genre);
    if (growths) growths.push(window.growth);
    else growthsByGenre.set(artist.genre, [window.growth]);
  }
  const genreBaseline = new Map<string | null, number>();
  for (const [genre, growths] of growthsByGenre) genreBaseline.set(genre, median(growths) ?? 0);

  const scored: Array<Breakout & { exactScore: number }> = [];
  for (const { artist, window } of eligible) {
    const g = window.growth;
    const b = window.baseline;
    const gb = genreBaseline.get(artist.genre) ?? 0;
    if ((window.mThen ?? 0) < BREAKOUT_MIN_BASE || g < BREAKOUT_MIN_GROWTH || g < 2 * Math.max(b, gb, BASELINE_FLOOR)) continue;
    const exactScore = g - Math.max(b, gb);
    scored.push({
      cluster_id: artist.cluster_id,
      slug: artist.slug,
      name: artist.name,
      genre: artist.genre,
      followers: window.now?.followers ?? 0,
      supporters: window.now?.supporters ?? 0,
      growth: round4(g),
      baseline: round4(b),
      genre_baseline: round4(gb),
      score: round4(exactScore),
      exactScore,
    });
  }
  scored.sort((x, y) => y.exactScore - x.exactScore || x.cluster_id - y.cluster_id);
  return scored.map(({ exactScore: _exact, ...breakout }) => breakout);
}
