/**
 * The planted signal structure, decided before any row is written:
 *
 * - Breakouts (≈ 3 % of Bandcamp artists), in three phases:
 *   - past:   a ×3–×10 surge over 14–35 days that starts 100–168 days before as_of and ends
 *             ≥ 100 days before it, so the history finds their first breakout at a known date
 *             while neither current window (30d, 90d) sees them;
 *   - fresh:  a surge that started 21–42 days before as_of (shows in the 30-day list);
 *   - rising: a surge that started 49–84 days before as_of (shows in the 90-day list).
 *   Every surge reaches ×2.6 by as_of, so the 90-day history rule (g ≥ ln 2) fires.
 * - Ones-to-watch (≈ 2 %): normal-but-brisk growth, picked within the last 180 days by a
 *   tastemaker label (a release) and/or a tastemaker festival (a booking).
 * - Tastemaker labels (2 % of labels, 2..100) release each breakout 2–40 weeks BEFORE its
 *   surge starts; tastemaker festivals book it at their last edition before the surge. These
 *   labels receive no other releases of Bandcamp artists, so their hit rate is high.
 * - Other labels pick at random: half of the breakouts also had an early release on a random
 *   label (a lucky hit), and every breakout's "debut" master on a random label comes after
 *   the surge (a miss).
 */

import { dayOfYearStart, yearOf } from './dates.js';
import { editionsOf, festivalTraits } from './festival-traits.js';
import { rngFor } from './prng.js';
import type { Surge } from './series.js';
import {
  type Booking,
  isCovered,
  isSpecial,
  isTastemakerLabel,
  popularArtist,
  popularLabel,
  type SignalPhase,
  type SignalPlan,
  tastemakerFestival,
  tastemakerLabel,
  type World,
} from './world.js';

/** Surge timing of each phase, relative to as_of. Shared with generateSignalsFor. */
export function surgeFor(phase: Exclude<SignalPhase, 'watch'>, rng: ReturnType<typeof rngFor>, asOfDay: number): Surge {
  if (phase === 'past') {
    const days = rng.int(14, 35);
    const startDay = rng.int(asOfDay - 168, asOfDay - 100 - days);
    return { startDay, days, multiplier: 3 + 7 * rng.next() };
  }
  const startDay = phase === 'fresh' ? rng.int(asOfDay - 42, asOfDay - 21) : rng.int(asOfDay - 84, asOfDay - 49);
  const days = phase === 'fresh' ? rng.int(21, 42) : rng.int(28, 56);
  // Progress by the last observation (weekly grid: up to 6 days lost); make sure ×2.6 is reached.
  const progress = Math.min(1, (asOfDay - startDay - 6) / days);
  const multiplier = Math.max(3 + 5 * rng.next(), 2.6 ** (1 / progress));
  return { startDay, days, multiplier };
}

export function phaseOfBreakout(index: number): Exclude<SignalPhase, 'watch'> {
  const r = index % 10;
  return r < 4 ? 'past' : r < 7 ? 'fresh' : 'rising';
}

/** A random label that is not a tastemaker ("other labels pick at random"). */
export function randomLabel(world: World, rng: ReturnType<typeof rngFor>): number {
  let label = popularLabel(world, rng.next());
  for (let tries = 0; tries < 32 && isTastemakerLabel(world, label); tries++) label = popularLabel(world, rng.next());
  return label;
}

function bookAt(plan: SignalPlan, festivalId: number, year: number, booking: Booking): void {
  let years = plan.bookings.get(festivalId);
  if (!years) {
    years = new Map();
    plan.bookings.set(festivalId, years);
  }
  const list = years.get(year) ?? [];
  list.push(booking);
  years.set(year, list);
}

export function buildSignalPlan(world: World): SignalPlan {
  const plan: SignalPlan = { artists: new Map(), plants: [], bookings: new Map() };
  const { breakout, watch, tastemakerLabels, tastemakerFestivals } = world.counts;
  const asOfDay = world.asOfDay;
  const festivals = Array.from({ length: tastemakerFestivals }, (_, i) => {
    const traits = festivalTraits(world, tastemakerFestival(world, i));
    return { id: traits.id, editions: editionsOf(world, traits) };
  });

  for (let j = 0; j < breakout + watch; j++) {
    const artistId = world.coverage.forward(j) + 1;
    const rng = rngFor(world.seed, 'signal-plan', j);
    const baseMetric = rng.int(120, 900);
    if (j < breakout) {
      const surge = surgeFor(phaseOfBreakout(j), rng, asOfDay);
      const picks: number[] = [];
      const labels = [tastemakerLabel(world, j % tastemakerLabels)];
      if (tastemakerLabels > 1 && rng.chance(0.5)) {
        const second = tastemakerLabel(world, rng.int(0, tastemakerLabels - 1));
        if (!labels.includes(second)) labels.push(second);
      }
      for (const labelId of labels) {
        const day = surge.startDay - rng.int(14, 280);
        plan.plants.push({ artistId, labelId, day });
        picks.push(day);
      }
      if (tastemakerFestivals > 0 && j % 5 < 3) {
        const festival = festivals[j % tastemakerFestivals];
        const edition = festival?.editions.filter((e) => e.day < surge.startDay - 7).at(-1);
        if (festival && edition) {
          bookAt(plan, festival.id, edition.year, { artistId, billing: rng.chance(0.75) ? 'support' : 'main' });
          picks.push(edition.day);
        }
      }
      const careerStart = Math.min(yearOf(Math.min(...picks)), world.asOfYear - rng.int(0, 3));
      if (rng.chance(0.5)) {
        // A lucky early pick by a random label, between the career start and the surge.
        const from = dayOfYearStart(careerStart);
        plan.plants.push({ artistId, labelId: randomLabel(world, rng), day: rng.int(from, Math.max(from, surge.startDay - 1)) });
      }
      plan.artists.set(artistId, { phase: phaseOfBreakout(j), surge, careerStart, baseMetric });
    } else {
      const w = j - breakout;
      let picked = false;
      if (tastemakerFestivals > 0 && rng.chance(0.6)) {
        const festival = festivals[w % tastemakerFestivals];
        const edition = festival?.editions.at(-1);
        if (festival && edition && edition.day > asOfDay - 180) {
          bookAt(plan, festival.id, edition.year, { artistId, billing: rng.chance(0.8) ? 'support' : 'main' });
          picked = true;
        }
      }
      if (!picked || rng.chance(0.6)) {
        plan.plants.push({ artistId, labelId: tastemakerLabel(world, w % tastemakerLabels), day: asOfDay - rng.int(5, 170) });
      }
      plan.artists.set(artistId, { phase: 'watch', surge: null, careerStart: world.asOfYear - rng.int(1, 4), baseMetric });
    }
  }

  // Tastemaker labels also release artists without Bandcamp (their rosters look real; such
  // picks do not count toward any hit rate).
  for (let i = 0; i < tastemakerLabels; i++) {
    const rng = rngFor(world.seed, 'tastemaker-roster', i);
    const labelId = tastemakerLabel(world, i);
    const roster = rng.int(2, 6);
    for (let k = 0; k < roster; k++) {
      const artistId = popularArtist(world, rng.next());
      if (isCovered(world, artistId) || isSpecial(world, artistId)) continue;
      plan.plants.push({ artistId, labelId, day: asOfDay - rng.int(30, 3650) });
    }
  }
  return plan;
}
