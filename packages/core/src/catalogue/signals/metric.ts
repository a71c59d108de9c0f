/**
 * The Bandcamp metric every signal is built on: m = followers + 2·supporters of the artist's
 * last observation on or before a date. Supporters count double because a purchase says more
 * than a follow.
 */
import type { BandcampObservation } from '../../dataset.js';
import { addDays } from '../dates.js';

export const SUPPORTER_WEIGHT = 2;

/** Observations in date order (a copy); the functions below expect this order. */
export function sortedObservations(observations: readonly BandcampObservation[]): BandcampObservation[] {
  return [...observations].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The last observation on or before `date` (binary search), or null. */
export function observationOn(sorted: readonly BandcampObservation[], date: string): BandcampObservation | null {
  let lo = 0;
  let hi = sorted.length - 1;
  let found: BandcampObservation | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const observation = sorted[mid] as BandcampObservation;
    if (observation.date <= date) {
      found = observation;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export function metricOf(observation: BandcampObservation): number {
  return observation.followers + SUPPORTER_WEIGHT * observation.supporters;
}

/** m(date), or null when the artist has no observation on or before it. */
export function metricOn(sorted: readonly BandcampObservation[], date: string): number | null {
  const observation = observationOn(sorted, date);
  return observation ? metricOf(observation) : null;
}

/** Log growth between two metric values; +1 keeps zero counts finite. */
export function logGrowth(now: number, then: number): number {
  return Math.log((now + 1) / (then + 1));
}

export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000 + 0;
}

/** The latest observation date over every series, or null when there is none. */
export function asOfDate(series: Iterable<readonly BandcampObservation[]>): string | null {
  let latest: string | null = null;
  for (const observations of series) {
    for (const observation of observations) if (latest === null || observation.date > latest) latest = observation.date;
  }
  return latest;
}

export interface WindowGrowth {
  /** Has an observation on or before as_of − 2W, so all three points exist. */
  eligible: boolean;
  now: BandcampObservation | null;
  mNow: number | null;
  mThen: number | null;
  mPrev: number | null;
  /** g = ln((m_now+1)/(m_then+1)); null unless eligible. */
  growth: number | null;
  /** b = ln((m_then+1)/(m_prev+1)); null unless eligible. */
  baseline: number | null;
}

/** m_now = m(as_of), m_then = m(as_of − W), m_prev = m(as_of − 2W), and the growths between. */
export function windowGrowth(sorted: readonly BandcampObservation[], asOf: string, windowDays: number): WindowGrowth {
  const now = observationOn(sorted, asOf);
  const mNow = now ? metricOf(now) : null;
  const mThen = metricOn(sorted, addDays(asOf, -windowDays));
  const mPrev = metricOn(sorted, addDays(asOf, -2 * windowDays));
  const eligible = mNow !== null && mThen !== null && mPrev !== null;
  return {
    eligible,
    now,
    mNow,
    mThen,
    mPrev,
    growth: eligible ? logGrowth(mNow, mThen) : null,
    baseline: eligible ? logGrowth(mThen, mPrev) : null,
  };
}
