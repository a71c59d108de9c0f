/**
 * The day an artist first broke out, judged on its own series only (no genre term), so it can
 * be computed per artist and stored.
 */
import type { BandcampObservation } from '../../dataset.js';
import { addDays } from '../dates.js';
import { logGrowth, metricOf, metricOn } from './metric.js';

export const HISTORY_WINDOW_DAYS = 90;
export const HISTORY_MIN_BASE = 50;
export const HISTORY_MIN_GROWTH = Math.log(2);
export const BASELINE_FLOOR = Math.log(1.05);

/**
 * The first observation date t where, with W = 90: an observation exists on or before t − 2W
 * (as for breakout eligibility), m(t−90) ≥ 50, g90(t) ≥ ln 2 and g90(t) ≥ 2·max(b90(t), ln 1.05);
 * null when there is none. `sorted` is in date order.
 */
export function firstBreakoutOn(sorted: readonly BandcampObservation[]): string | null {
  for (const observation of sorted) {
    const t = observation.date;
    const mThen = metricOn(sorted, addDays(t, -HISTORY_WINDOW_DAYS));
    const mPrev = metricOn(sorted, addDays(t, -2 * HISTORY_WINDOW_DAYS));
    if (mThen === null || mPrev === null || mThen < HISTORY_MIN_BASE) continue;
    const growth = logGrowth(metricOf(observation), mThen);
    const baseline = logGrowth(mThen, mPrev);
    if (growth >= HISTORY_MIN_GROWTH && growth >= 2 * Math.max(baseline, BASELINE_FLOOR)) return t;
  }
  return null;
}
