/** The Bandcamp row of a covered artist: url, 52 weekly observations and a few releases with tags. */
import type { BandcampRow } from '@catalogue/core';
import { bandcampUrlOf } from './artists.js';
import { dayOfYearStart, isoOf } from './dates.js';
import { slugOf } from './names.js';
import type { Rng } from './prng.js';
import { rngFor } from './prng.js';
import { type GrowthPlan, observationsFor, type Surge } from './series.js';
import type { GenreProfile } from './taxonomy.js';
import { ADJECTIVES, NOUNS, TITLE_WORDS } from './words.js';
import { artistTraits, isCovered, type World } from './world.js';

/** Growth of an artist without a planted surge: its genre's normal rate, ±60 %. */
export function ordinaryGrowth(rng: Rng, genre: GenreProfile): GrowthPlan {
  return {
    baseMetric: Math.round(Math.min(200_000, Math.max(3, Math.exp(4.8 + 1.3 * rng.normal())))),
    supporterShare: 0.04 + 0.16 * rng.next(),
    monthlyGrowth: genre.monthlyGrowth * (0.4 + 1.2 * rng.next()),
    surge: null,
  };
}

export function plannedGrowth(rng: Rng, genre: GenreProfile, baseMetric: number, surge: Surge | null, watch: boolean): GrowthPlan {
  return {
    baseMetric,
    supporterShare: 0.06 + 0.14 * rng.next(),
    // Ones-to-watch grow briskly (2–3× their genre) but far below a breakout.
    monthlyGrowth: genre.monthlyGrowth * (watch ? 2 + rng.next() : 0.6 + 0.8 * rng.next()),
    surge,
  };
}

export interface BandcampReleaseSeed {
  rng: Rng;
  url: string;
  styles: readonly string[];
  genre: string;
  fromDay: number;
  toDay: number;
  /** A release pinned near this day (a breakout's record), if any. */
  pinnedDay: number | null;
}

export function bandcampReleases({ rng, url, styles, genre, fromDay, toDay, pinnedDay }: BandcampReleaseSeed): BandcampRow['releases'] {
  const count = rng.int(1, 5);
  const releases: BandcampRow['releases'] = [];
  const seen = new Set<string>();
  for (let k = 0; k < count; k++) {
    const title = rng.chance(0.5) ? `${rng.pick(ADJECTIVES)} ${rng.pick(TITLE_WORDS)}` : `${rng.pick(NOUNS)}${rng.chance(0.3) ? ' EP' : ''}`;
    const slug = slugOf(title);
    if (seen.has(slug)) continue;
    seen.add(slug);
    const day = k === 0 && pinnedDay !== null ? Math.min(toDay, pinnedDay) : rng.int(fromDay, Math.max(fromDay, toDay));
    const tags = [
      ...new Set([
        genre.toLowerCase(),
        ...styles.map((s) => s.toLowerCase()),
        ...(rng.chance(0.4) ? [rng.pick(['vinyl', 'limited', 'debut', 'live', 'remix'])] : []),
      ]),
    ];
    releases.push({ title, url: `${url}/album/${slug}`, released: isoOf(day), tags });
  }
  return releases.sort((a, b) => (a.released ?? '').localeCompare(b.released ?? '') || a.url.localeCompare(b.url));
}

export function bandcampAt(world: World, artistId: number): BandcampRow | null {
  if (!isCovered(world, artistId)) return null;
  const rng = rngFor(world.seed, 'bandcamp', artistId);
  const traits = artistTraits(world, artistId);
  const planned = world.plan.artists.get(artistId);
  const growth = planned ? plannedGrowth(rng, traits.genre, planned.baseMetric, planned.surge, planned.phase === 'watch') : ordinaryGrowth(rng, traits.genre);
  const url = bandcampUrlOf(world, artistId);
  const fromDay = Math.max(dayOfYearStart(Math.max(traits.careerStart, 2008)), dayOfYearStart(2008));
  return {
    artist_discogs_id: artistId,
    url,
    observations: observationsFor(rng, growth, world.observationDays, world.observationDates),
    releases: bandcampReleases({
      rng,
      url,
      styles: traits.styles,
      genre: traits.genre.name,
      fromDay,
      toDay: world.asOfDay,
      pinnedDay: planned?.surge ? planned.surge.startDay + rng.int(-7, 7) : null,
    }),
  };
}
