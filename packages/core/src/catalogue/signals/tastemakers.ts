/** Tastemakers: labels and festivals ranked by how often their picks later broke out. */
import type { Tastemaker } from '../../schemas/records.js';
import { daysBetween } from '../dates.js';
import { round4 } from './metric.js';
import type { Pick } from './picks.js';
import { median } from './signal-artist.js';

export const MIN_PICKS = 3;

export interface TastemakerInfo {
  cluster_id: number;
  kind: 'label' | 'festival';
  slug: string;
  name: string;
}

/** A ranked tastemaker before the list is cut; `rank` is its place in the unfiltered ranking. */
export interface TastemakerStanding extends Tastemaker {
  /** hits / picks, unrounded: sums in ones-to-watch use it. */
  exact_hit_rate: number;
}

/**
 * The picks that count: of artists with a Bandcamp series (keys of `firstBreakouts`), dated on
 * or before as_of.
 */
export function countedPicks(picks: readonly Pick[], firstBreakouts: ReadonlyMap<number, string | null>, asOf: string | null): Pick[] {
  if (asOf === null) return [];
  return picks.filter((pick) => firstBreakouts.has(pick.artist_id) && pick.picked_on <= asOf);
}

function compareStandings(a: TastemakerStanding, b: TastemakerStanding): number {
  // hit_rate desc, compared exactly by cross-multiplication
  const byRate = b.hits * a.picks - a.hits * b.picks;
  if (byRate !== 0) return byRate;
  if (a.median_lead_days !== b.median_lead_days) {
    if (a.median_lead_days === null) return 1;
    if (b.median_lead_days === null) return -1;
    return b.median_lead_days - a.median_lead_days;
  }
  return b.picks - a.picks || a.cluster_id - b.cluster_id;
}

/**
 * Every tastemaker with at least 3 counted picks, ranked: hit_rate desc, median lead desc
 * (null last), picks desc, cluster_id asc; rank = 1..n. A pick is a hit when the artist's
 * first_breakout_on exists and is on or after the pick date; its lead is the days between.
 * Pass picks already filtered by `countedPicks`.
 */
export function rankTastemakers(
  tastemakers: readonly TastemakerInfo[],
  picks: readonly Pick[],
  firstBreakouts: ReadonlyMap<number, string | null>,
): TastemakerStanding[] {
  const picksBy = new Map<number, Pick[]>();
  for (const pick of picks) {
    const list = picksBy.get(pick.tastemaker_id);
    if (list) list.push(pick);
    else picksBy.set(pick.tastemaker_id, [pick]);
  }
  const standings: TastemakerStanding[] = [];
  for (const tastemaker of tastemakers) {
    const own = picksBy.get(tastemaker.cluster_id) ?? [];
    if (own.length < MIN_PICKS) continue;
    const leads: number[] = [];
    for (const pick of own) {
      const first = firstBreakouts.get(pick.artist_id) ?? null;
      if (first !== null && first >= pick.picked_on) leads.push(daysBetween(pick.picked_on, first));
    }
    const exact = leads.length / own.length;
    standings.push({
      ...tastemaker,
      picks: own.length,
      hits: leads.length,
      hit_rate: round4(exact),
      median_lead_days: median(leads),
      rank: 0,
      exact_hit_rate: exact,
    });
  }
  standings.sort(compareStandings);
  return standings.map((standing, i) => ({ ...standing, rank: i + 1 }));
}

/** The served list: filter by kind first, then rank within what is returned. */
export function tastemakerList(standings: readonly TastemakerStanding[], kind: 'label' | 'festival' | null, limit: number): Tastemaker[] {
  return standings
    .filter((standing) => kind === null || standing.kind === kind)
    .slice(0, limit)
    .map(({ exact_hit_rate: _exact, ...tastemaker }, i) => ({ ...tastemaker, rank: i + 1 }));
}
