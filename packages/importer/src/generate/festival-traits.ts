/**
 * A festival's fixed traits and its yearly edition dates. Tastemaker festivals run from at
 * least six years ago and hold their yearly date 10–150 days before as_of, so their latest
 * edition falls within the ones-to-watch window (the last 180 days).
 */
import { dayOfDate, isoOf } from './dates.js';
import { disambiguate, FESTIVAL_NAMES, nameAt } from './names.js';
import { affinePermutation } from './permutation.js';
import { rngFor } from './prng.js';
import { FESTIVAL_PLACES, GENRE_WEIGHTS, GENRES } from './taxonomy.js';
import { isTastemakerFestival, type World } from './world.js';

export interface FestivalTraits {
  id: number;
  name: string;
  country: string;
  city: string;
  genres: string[];
  startYear: number;
  month: number;
  day: number;
  tastemaker: boolean;
}

export interface Edition {
  year: number;
  day: number;
}

export function festivalTraits(world: World, id: number): FestivalTraits {
  const rng = rngFor(world.seed, 'festival', id);
  const tastemaker = isTastemakerFestival(world, id);
  let month: number;
  let day: number;
  let startYear: number;
  if (tastemaker) {
    const date = isoOf(world.asOfDay - rng.int(10, 150));
    month = Number(date.slice(5, 7));
    day = Math.min(28, Number(date.slice(8, 10)));
    startYear = world.asOfYear - rng.int(6, 14);
  } else {
    month = rng.chance(0.85) ? rng.int(4, 9) : rng.pick([1, 2, 3, 10, 11, 12]);
    day = rng.int(1, 28);
    startYear = world.asOfYear - rng.int(1, 25);
  }
  const period = Math.min(FESTIVAL_NAMES.capacity, world.sizes.festivals);
  const perm = affinePermutation(world.seed, 'names:festival', FESTIVAL_NAMES.capacity);
  const name = disambiguate(nameAt(FESTIVAL_NAMES, perm.forward((id - 1) % period)), 1 + Math.floor((id - 1) / period));
  const [country, city] = rng.pick(FESTIVAL_PLACES);
  const genres: string[] = [];
  const genreCount = rng.int(1, 3);
  for (let i = 0; i < genreCount; i++) {
    const genre = rng.weighted(GENRES, GENRE_WEIGHTS).name;
    if (!genres.includes(genre)) genres.push(genre);
  }
  return { id, name, country, city, genres, startYear, month, day, tastemaker };
}

/** Yearly editions from the first year up to the last one that started on or before as_of. */
export function editionsOf(world: World, traits: FestivalTraits): Edition[] {
  const editions: Edition[] = [];
  for (let year = traits.startYear; year <= world.asOfYear; year++) {
    const day = dayOfDate(year, traits.month, traits.day);
    if (day <= world.asOfDay) editions.push({ year, day });
  }
  return editions;
}
