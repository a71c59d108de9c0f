import { describe, expect, it } from 'vitest';
import type { BandcampObservation } from '../../dataset.js';
import { breakoutsOf } from './breakouts.js';
import { firstBreakoutOn } from './first-breakout.js';
import { mainGenreOf } from './main-genre.js';
import { metricOn, sortedObservations } from './metric.js';
import { festivalPicksOf } from './picks.js';
import type { SignalArtist } from './signal-artist.js';
import { rankTastemakers, tastemakerList } from './tastemakers.js';

const obs = (date: string, followers: number, supporters = 0): BandcampObservation => ({ date, followers, supporters });
const artist = (cluster_id: number, genre: string | null, observations: BandcampObservation[]): SignalArtist => ({
  cluster_id,
  slug: `a-${cluster_id}`,
  name: `A ${cluster_id}`,
  genre,
  observations: sortedObservations(observations),
});

describe('metric', () => {
  it('takes the last observation on or before a date, supporters counting double', () => {
    const series = sortedObservations([obs('2024-03-01', 10, 5), obs('2024-01-01', 1), obs('2024-02-01', 4, 1)]);
    expect(metricOn(series, '2023-12-31')).toBeNull();
    expect(metricOn(series, '2024-01-31')).toBe(1);
    expect(metricOn(series, '2024-02-01')).toBe(6);
    expect(metricOn(series, '2030-01-01')).toBe(20);
  });
});

describe('mainGenreOf', () => {
  it('counts a genre once per master and breaks ties alphabetically', () => {
    expect(mainGenreOf([{ genres: ['Rock', 'Rock'] }, { genres: ['Jazz'] }])).toBe('Jazz');
    expect(mainGenreOf([{ genres: ['Rock'] }, { genres: ['Jazz', 'Rock'] }])).toBe('Rock');
    expect(mainGenreOf([])).toBeNull();
  });
});

describe('firstBreakoutOn', () => {
  it('needs a base of 50 90 days earlier, a doubling, and a 180-day history', () => {
    // doubling from 60 at t−90, flat before: breaks out on 2022-07-01
    expect(firstBreakoutOn(sortedObservations([obs('2022-01-01', 60), obs('2022-04-01', 60), obs('2022-07-01', 200)]))).toBe('2022-07-01');
    // the same jump from a base of 40 is too small a base
    expect(firstBreakoutOn(sortedObservations([obs('2022-01-01', 40), obs('2022-04-01', 40), obs('2022-07-01', 200)]))).toBeNull();
    // without an observation 180 days before, the own baseline is unknown
    expect(firstBreakoutOn(sortedObservations([obs('2022-04-01', 60), obs('2022-07-01', 200)]))).toBeNull();
    // growing as fast before as now: g90 = ln(241/121) < 2·b90 = 2·ln(121/61)
    expect(firstBreakoutOn(sortedObservations([obs('2022-01-01', 60), obs('2022-04-01', 120), obs('2022-07-01', 240)]))).toBeNull();
  });
});

describe('breakoutsOf', () => {
  it('keeps artists whose m_then reaches 50 and whose growth beats twice the larger baseline', () => {
    const asOf = '2024-06-30';
    const artists = [
      artist(1, 'X', [obs('2024-04-01', 60), obs('2024-05-31', 60), obs('2024-06-30', 120)]),
      artist(5, 'X', [obs('2024-04-01', 40), obs('2024-05-31', 40), obs('2024-06-30', 400)]), // base 40 < 50
      artist(9, 'X', [obs('2024-05-31', 60), obs('2024-06-30', 120)]), // not eligible: nothing on or before 2024-05-01
    ];
    // eligible X growths: ln(121/61) and ln(401/41); median = their mean, above artist 1's growth
    expect(breakoutsOf(artists, asOf, 30)).toEqual([]);
    // with flat genre peers the genre baseline is 0 and the own baseline ln(61/61) = 0
    const flat = (id: number) => artist(id, 'X', [obs('2024-04-01', 60), obs('2024-06-30', 60)]);
    const withPeers = breakoutsOf([artists[0] as SignalArtist, flat(13), flat(17), artists[2] as SignalArtist], asOf, 30);
    expect(withPeers.map((b) => [b.cluster_id, b.growth, b.baseline, b.genre_baseline, b.score])).toEqual([
      [1, Math.round(Math.log(121 / 61) * 1e4) / 1e4, 0, 0, Math.round(Math.log(121 / 61) * 1e4) / 1e4],
    ]);
    expect(breakoutsOf(artists, null, 30)).toEqual([]);
  });
});

describe('tastemakers', () => {
  it('breaks hit-rate ties by median lead, then picks, then cluster id, and ranks after filtering', () => {
    const firstBreakouts = new Map<number, string | null>([
      [101, '2024-06-01'],
      [105, '2024-01-01'],
      [109, null],
      [113, null],
    ]);
    const infos = [
      { cluster_id: 2, kind: 'label' as const, slug: 'l-2', name: 'L2' },
      { cluster_id: 3, kind: 'festival' as const, slug: 'f-3', name: 'F3' },
      { cluster_id: 6, kind: 'label' as const, slug: 'l-6', name: 'L6' },
    ];
    const picks = [
      // label 2: hit 101 with lead 31 days, misses 109, 113 → 1/3
      { tastemaker_id: 2, artist_id: 101, picked_on: '2024-05-01' },
      { tastemaker_id: 2, artist_id: 109, picked_on: '2024-05-01' },
      { tastemaker_id: 2, artist_id: 113, picked_on: '2024-05-01' },
      // festival 3: hit 105 with lead 31 days, misses 109, 113 → 1/3, same lead
      { tastemaker_id: 3, artist_id: 105, picked_on: '2023-12-01' },
      { tastemaker_id: 3, artist_id: 109, picked_on: '2023-12-01' },
      { tastemaker_id: 3, artist_id: 113, picked_on: '2023-12-01' },
      // label 6: a pick after the breakout is no hit, only two picks → unranked
      { tastemaker_id: 6, artist_id: 105, picked_on: '2024-02-01' },
      { tastemaker_id: 6, artist_id: 101, picked_on: '2024-05-01' },
      ...festivalPicksOf([]),
    ];
    const standings = rankTastemakers(infos, picks, firstBreakouts);
    expect(standings.map((s) => [s.cluster_id, s.hit_rate, s.median_lead_days, s.rank])).toEqual([
      [2, 0.3333, 31, 1],
      [3, 0.3333, 31, 2],
    ]);
    expect(tastemakerList(standings, 'festival', 10).map((t) => [t.cluster_id, t.rank])).toEqual([[3, 1]]);
  });
});
