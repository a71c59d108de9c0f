/** Ones to watch: recent picks of the best tastemakers that have not broken out yet. */
import type { OneToWatch } from '../../schemas/records.js';
import { addDays } from '../dates.js';
import { round4, windowGrowth } from './metric.js';
import type { Pick } from './picks.js';
import type { SignalArtist } from './signal-artist.js';
import type { TastemakerStanding } from './tastemakers.js';

export const TOP_TASTEMAKERS = 20;
export const RECENT_PICK_DAYS = 180;

/** m_now / m_then − 1 over `windowDays`, rounded to 4 dp; null without both points or when m_then is 0. */
export function relativeGrowth(artist: SignalArtist, asOf: string, windowDays: number): number | null {
  const window = windowGrowth(artist.observations, asOf, windowDays);
  if (window.mNow === null || window.mThen === null || window.mThen === 0) return null;
  return round4(window.mNow / window.mThen - 1);
}

export interface OnesToWatchInput {
  asOf: string | null;
  /** The unfiltered tastemaker ranking. */
  standings: readonly TastemakerStanding[];
  /** Counted picks (see countedPicks). */
  picks: readonly Pick[];
  artists: ReadonlyMap<number, SignalArtist>;
  firstBreakouts: ReadonlyMap<number, string | null>;
  /** cluster ids of current breakouts in either window. */
  breakoutIds: ReadonlySet<number>;
}

/**
 * Artists picked by a top-20 tastemaker with a pick date in (as_of − 180 d, as_of], that are
 * not a breakout now (30 or 90 days) and whose first_breakout_on is null or after as_of.
 * score = Σ hit_rate of the top tastemakers that picked them (rounded 4 dp); ordered by score
 * desc, then 30-day growth desc (null last), then cluster_id asc.
 */
export function onesToWatchOf(input: OnesToWatchInput): OneToWatch[] {
  const { asOf } = input;
  if (asOf === null) return [];
  const top = new Map(input.standings.slice(0, TOP_TASTEMAKERS).map((standing) => [standing.cluster_id, standing]));
  const since = addDays(asOf, -RECENT_PICK_DAYS);
  const pickedBy = new Map<number, Array<{ standing: TastemakerStanding; picked_on: string }>>();
  for (const pick of input.picks) {
    const standing = top.get(pick.tastemaker_id);
    if (!standing || pick.picked_on <= since || pick.picked_on > asOf) continue;
    const list = pickedBy.get(pick.artist_id);
    if (list) list.push({ standing, picked_on: pick.picked_on });
    else pickedBy.set(pick.artist_id, [{ standing, picked_on: pick.picked_on }]);
  }
  const items: Array<OneToWatch & { exactScore: number }> = [];
  for (const [artistId, by] of pickedBy) {
    const artist = input.artists.get(artistId);
    if (!artist || input.breakoutIds.has(artistId)) continue;
    const first = input.firstBreakouts.get(artistId) ?? null;
    if (first !== null && first <= asOf) continue;
    by.sort((a, b) => a.standing.rank - b.standing.rank);
    const exactScore = by.reduce((sum, entry) => sum + entry.standing.exact_hit_rate, 0);
    const latest = artist.observations[artist.observations.length - 1];
    items.push({
      cluster_id: artist.cluster_id,
      slug: artist.slug,
      name: artist.name,
      genre: artist.genre,
      picked_by: by.map(({ standing, picked_on }) => ({
        cluster_id: standing.cluster_id,
        kind: standing.kind,
        slug: standing.slug,
        name: standing.name,
        picked_on,
      })),
      score: round4(exactScore),
      followers: latest?.followers ?? 0,
      growth: relativeGrowth(artist, asOf, 30),
      exactScore,
    });
  }
  items.sort((a, b) => {
    if (b.exactScore !== a.exactScore) return b.exactScore - a.exactScore;
    if (a.growth !== b.growth) {
      if (a.growth === null) return 1;
      if (b.growth === null) return -1;
      return b.growth - a.growth;
    }
    return a.cluster_id - b.cluster_id;
  });
  return items.map(({ exactScore: _exact, ...item }) => item);
}
