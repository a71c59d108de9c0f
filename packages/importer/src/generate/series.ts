/**
 * Weekly Bandcamp observations from a growth plan. The continuous curve is
 *   followers(t) = f0 · exp(r · t/30 + surge(t)),  surge(t) = ln K · clamp((t − s)/d, 0, 1)
 * (exponential "normal" growth at the genre's monthly rate r, plus an optional planted surge
 * multiplying the audience by K over d days from day s). Observed values take each week's
 * increment times a noise factor in [0.5, 1.5), so both counts are nondecreasing integers
 * while the long-run curve is kept.
 */
import type { BandcampObservation } from '@catalogue/core';
import type { Rng } from './prng.js';

export interface Surge {
  /** Day number the surge starts on. */
  startDay: number;
  days: number;
  multiplier: number;
}

export interface GrowthPlan {
  /** Metric m = followers + 2·supporters at the first observation (approximately). */
  baseMetric: number;
  /** supporters ≈ share · followers. */
  supporterShare: number;
  /** Growth per 30 days, as a rate (0.02 = 2 %). */
  monthlyGrowth: number;
  surge: Surge | null;
}

function surgeLog(surge: Surge | null, day: number): number {
  if (!surge) return 0;
  const progress = Math.min(1, Math.max(0, (day - surge.startDay) / surge.days));
  return Math.log(surge.multiplier) * progress;
}

export function observationsFor(rng: Rng, plan: GrowthPlan, days: readonly number[], isoDates: readonly string[]): BandcampObservation[] {
  const first = days[0] as number;
  const f0 = plan.baseMetric / (1 + 2 * plan.supporterShare);
  const rate = Math.log(1 + plan.monthlyGrowth) / 30;
  const curve = (day: number): number => f0 * Math.exp(rate * (day - first) + surgeLog(plan.surge, day));
  const out: BandcampObservation[] = [];
  let followers = Math.max(1, Math.round(f0));
  let supporters = Math.round(followers * plan.supporterShare);
  let previous = curve(first);
  for (let k = 0; k < days.length; k++) {
    const day = days[k] as number;
    if (k > 0) {
      const target = curve(day);
      const increment = target - previous;
      previous = target;
      followers = Math.max(followers, Math.round(followers + increment * (0.5 + rng.next())));
      // Supporters track the followers' share, with their own noise, never going down.
      const wanted = followers * plan.supporterShare * (0.9 + 0.2 * rng.next());
      supporters = Math.max(supporters, Math.round(wanted));
    }
    out.push({ date: isoDates[k] as string, followers, supporters });
  }
  return out;
}
