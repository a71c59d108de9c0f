/**
 * The world a generated catalogue is drawn from: sizes, seeded permutations that place roles
 * and popularity on ids, per-entity traits answered in O(1) from the entity's own PRNG stream,
 * and the small "plan" of planted signal structure (breakouts, ones-to-watch, tastemaker picks),
 * which is the only state proportional to anything (≈ 5 % of Bandcamp artists).
 *
 * Artist roles, by position j = coverage⁻¹(id − 1):
 *   j < nBreakout                 planted breakout (past, fresh or rising, see signal-plan.ts)
 *   j < nBreakout + nWatch        planted one-to-watch
 *   j < bandcampArtists           Bandcamp-covered artist growing at its genre's normal rate
 *   otherwise                     no Bandcamp series
 */
import type { LineupBilling } from '@catalogue/core';
import { dayOf, isoOf } from './dates.js';
import { BAND_NAMES, disambiguate, LABEL_NAMES, type NameSpace, nameAt, PERSON_NAMES, PROJECT_NAMES } from './names.js';
import { affinePermutation, type Permutation } from './permutation.js';
import { rngFor } from './prng.js';
import type { Surge } from './series.js';
import type { Sizes } from './sizes.js';
import { GENRE_WEIGHTS, GENRES, type GenreProfile, SIGNAL_GENRE_WEIGHTS, SIGNAL_GENRES } from './taxonomy.js';
import { zipfRank } from './zipf.js';

export const OBSERVATION_WEEKS = 52;
/** Zipf–Mandelbrot offset: keeps the head heavy but not absurd (top artist ≈ 1–2 % of masters). */
const ARTIST_ZIPF_OFFSET = 12;
const LABEL_ZIPF_OFFSET = 6;
/** Share of names that repeat ("Name (2)"). */
const NAME_PERIOD_SHARE = 0.95;

/** Where master titles draw their words: the demo's small list, or the scale's Zipf vocabulary (vocabulary.ts). */
export type TitleVocabulary = 'demo' | 'zipf';

/** The planted signal structure the world holds; signal-plan.ts builds it. */
export type SignalPhase = 'past' | 'fresh' | 'rising' | 'watch';

export interface ArtistPlan {
  phase: SignalPhase;
  surge: Surge | null;
  careerStart: number;
  baseMetric: number;
}

export interface Plant {
  artistId: number;
  labelId: number;
  day: number;
}

export interface Booking {
  artistId: number;
  billing: LineupBilling;
}

export interface SignalPlan {
  artists: Map<number, ArtistPlan>;
  /** Masters planted on labels: written first in the masters stream. */
  plants: Plant[];
  /** festival id → edition year → planted lineup entries. */
  bookings: Map<number, Map<number, Booking[]>>;
}

export type ArtistKind = 'person' | 'band' | 'project';
export type ArtistRole = 'breakout' | 'watch' | 'covered' | 'none';

export interface ArtistTraits {
  kind: ArtistKind;
  genre: GenreProfile;
  styles: string[];
  careerStart: number;
  careerEnd: number;
  country: string;
}

export interface World {
  readonly seed: number;
  readonly sizes: Sizes;
  readonly asOf: string;
  readonly asOfDay: number;
  readonly asOfYear: number;
  /** Day numbers and ISO dates of the 52 weekly observations, ending at as_of. */
  readonly observationDays: readonly number[];
  readonly observationDates: readonly string[];
  readonly coverage: Permutation;
  readonly artistPopularity: Permutation;
  readonly labelPopularity: Permutation;
  readonly labelRoles: Permutation;
  readonly festivalRoles: Permutation;
  readonly masterIds: Permutation;
  /** Where master titles draw their words (vocabulary.ts): 'demo' unless the caller asks for 'zipf'. */
  readonly titleVocabulary: TitleVocabulary;
  readonly counts: { breakout: number; watch: number; tastemakerLabels: number; tastemakerFestivals: number };
  readonly names: Record<ArtistKind | 'label', { space: NameSpace; period: number; perm: Permutation }>;
  plan: SignalPlan;
  /** Bounded memo of per-artist answers that masters ask for over and over (names, traits). */
  readonly memo: { names: Map<number, string>; traits: Map<number, ArtistTraits> };
}

/** Memo entries kept before a cache is dropped: bounds memory at scale, holds the whole demo. */
const MEMO_LIMIT = 100_000;

function remember<V>(cache: Map<number, V>, key: number, value: V): V {
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

export function createWorld(seed: number, sizes: Sizes, asOf: string, titleVocabulary: TitleVocabulary = 'demo'): World {
  const asOfDay = dayOf(asOf);
  const observationDays = Array.from({ length: OBSERVATION_WEEKS }, (_, k) => asOfDay - 7 * (OBSERVATION_WEEKS - 1 - k));
  const namePlan = (space: NameSpace, population: number, tag: string) => {
    const period = Math.max(1, Math.min(space.capacity, Math.floor(population * NAME_PERIOD_SHARE)));
    return { space, period, perm: affinePermutation(seed, `names:${tag}`, space.capacity) };
  };
  const b = sizes.bandcampArtists;
  const world: World = {
    seed,
    sizes,
    asOf,
    asOfDay,
    asOfYear: Number(asOf.slice(0, 4)),
    observationDays,
    observationDates: observationDays.map(isoOf),
    coverage: affinePermutation(seed, 'coverage', sizes.artists),
    artistPopularity: affinePermutation(seed, 'artist-popularity', sizes.artists),
    labelPopularity: affinePermutation(seed, 'label-popularity', sizes.labels),
    labelRoles: affinePermutation(seed, 'label-roles', sizes.labels),
    festivalRoles: affinePermutation(seed, 'festival-roles', sizes.festivals),
    masterIds: affinePermutation(seed, 'master-ids', sizes.masters),
    titleVocabulary,
    counts: {
      breakout: Math.min(b, Math.max(3, Math.round(b * 0.03))),
      watch: Math.min(Math.max(0, b - Math.max(3, Math.round(b * 0.03))), Math.max(3, Math.round(b * 0.02))),
      tastemakerLabels: Math.min(sizes.labels, clamp(Math.round(sizes.labels * 0.02), 2, 100)),
      tastemakerFestivals: Math.min(sizes.festivals, clamp(Math.round(sizes.festivals * 0.1), 1, 20)),
    },
    names: {
      person: namePlan(PERSON_NAMES, sizes.artists, 'person'),
      band: namePlan(BAND_NAMES, sizes.artists, 'band'),
      project: namePlan(PROJECT_NAMES, sizes.artists, 'project'),
      label: namePlan(LABEL_NAMES, sizes.labels, 'label'),
    },
    // Filled by buildSignalPlan (signal-plan.ts), which reads the world's traits.
    plan: { artists: new Map(), plants: [], bookings: new Map() },
    memo: { names: new Map(), traits: new Map() },
  };
  return world;
}

// ---- artists -------------------------------------------------------------------------------

/** Artists come in blocks of 8 ids so that groups, members and alias pairs reference each other without lookups. */
const BLOCK = 8;

export interface BlockShape {
  /** Group at block position 0 with members at 1..members (0 = no group). */
  members: number;
  /** Alias pair at positions 6 (person) and 7 (project). */
  aliasPair: boolean;
}

export function blockShape(world: World, id: number): BlockShape {
  const block = Math.floor((id - 1) / BLOCK);
  const rng = rngFor(world.seed, 'artist-block', block);
  const members = rng.chance(0.3) ? rng.int(2, 4) : 0;
  const aliasPair = rng.chance(0.25);
  return { members, aliasPair };
}

export function blockPosition(id: number): number {
  return (id - 1) % BLOCK;
}

export function artistKind(world: World, id: number): ArtistKind {
  if (id < 1 || id > world.sizes.artists) return 'person';
  const shape = blockShape(world, id);
  const pos = blockPosition(id);
  if (shape.members > 0 && pos === 0) return 'band';
  if (shape.members > 0 && pos <= shape.members) return 'person';
  if (shape.aliasPair && pos === 6) return 'person';
  if (shape.aliasPair && pos === 7) return 'project';
  const r = rngFor(world.seed, 'artist-kind', id).next();
  return r < 0.45 ? 'person' : r < 0.75 ? 'band' : 'project';
}

function nameKey(world: World, kind: ArtistKind | 'label', id: number): number {
  const names = world.names[kind];
  return names.perm.forward((id - 1) % names.period);
}

/** The artist's display name, with Discogs' "(n)" when an earlier artist of that kind holds it. */
export function artistName(world: World, id: number): string {
  return world.memo.names.get(id) ?? remember(world.memo.names, id, computeArtistName(world, id));
}

function computeArtistName(world: World, id: number): string {
  const kind = artistKind(world, id);
  const names = world.names[kind];
  let copy = 1;
  for (let earlier = id - names.period; earlier >= 1; earlier -= names.period) {
    if (artistKind(world, earlier) === kind) copy++;
  }
  return disambiguate(nameAt(names.space, nameKey(world, kind, id)), copy);
}

export function labelName(world: World, id: number): string {
  const names = world.names.label;
  return disambiguate(nameAt(names.space, nameKey(world, 'label', id)), 1 + Math.floor((id - 1) / names.period));
}

export function artistRole(world: World, id: number): ArtistRole {
  const j = world.coverage.inverse(id - 1);
  if (j < world.counts.breakout) return 'breakout';
  if (j < world.counts.breakout + world.counts.watch) return 'watch';
  if (j < world.sizes.bandcampArtists) return 'covered';
  return 'none';
}

export function isCovered(world: World, id: number): boolean {
  return world.coverage.inverse(id - 1) < world.sizes.bandcampArtists;
}

export function isSpecial(world: World, id: number): boolean {
  return world.coverage.inverse(id - 1) < world.counts.breakout + world.counts.watch;
}

/** Traits are read-only to callers: the object is shared through the memo. */
export function artistTraits(world: World, id: number): ArtistTraits {
  return world.memo.traits.get(id) ?? remember(world.memo.traits, id, computeArtistTraits(world, id));
}

const ARTIST_COUNTRIES = [
  'US',
  'UK',
  'Germany',
  'France',
  'Netherlands',
  'Sweden',
  'Japan',
  'Canada',
  'Italy',
  'Australia',
  'Spain',
  'Belgium',
  'Brazil',
  'Jamaica',
];
const ARTIST_COUNTRY_WEIGHTS = [30, 16, 10, 6, 5, 4, 5, 4, 4, 3, 3, 2, 2, 1];

function computeArtistTraits(world: World, id: number): ArtistTraits {
  const rng = rngFor(world.seed, 'artist-traits', id);
  const special: ArtistPlan | undefined = world.plan.artists.get(id);
  const genre = special ? rng.weighted(SIGNAL_GENRES, SIGNAL_GENRE_WEIGHTS) : rng.weighted(GENRES, GENRE_WEIGHTS);
  const styleCount = rng.int(1, 3);
  const styles: string[] = [];
  for (let i = 0; i < styleCount; i++) {
    const style = rng.pick(genre.styles);
    if (!styles.includes(style)) styles.push(style);
  }
  let careerStart = rng.int(genre.era[0], genre.era[1]);
  let careerEnd = Math.min(world.asOfYear, careerStart + Math.floor(2 + 25 * rng.next() ** 2));
  if (special) {
    careerStart = special.careerStart;
    careerEnd = world.asOfYear;
  }
  const country = rng.weighted(ARTIST_COUNTRIES, ARTIST_COUNTRY_WEIGHTS);
  return { kind: artistKind(world, id), genre, styles, careerStart, careerEnd, country };
}

// ---- popularity and roles -----------------------------------------------------------------------

/** A popular artist id (Zipf over popularity ranks). */
export function popularArtist(world: World, u: number): number {
  return world.artistPopularity.forward(zipfRank(u, world.sizes.artists, ARTIST_ZIPF_OFFSET)) + 1;
}

export function popularLabel(world: World, u: number): number {
  return world.labelPopularity.forward(zipfRank(u, world.sizes.labels, LABEL_ZIPF_OFFSET)) + 1;
}

export function isTastemakerLabel(world: World, id: number): boolean {
  return world.labelRoles.inverse(id - 1) < world.counts.tastemakerLabels;
}

/** The i-th tastemaker label's id. */
export function tastemakerLabel(world: World, i: number): number {
  return world.labelRoles.forward(i) + 1;
}

export function isTastemakerFestival(world: World, id: number): boolean {
  return world.festivalRoles.inverse(id - 1) < world.counts.tastemakerFestivals;
}

export function tastemakerFestival(world: World, i: number): number {
  return world.festivalRoles.forward(i) + 1;
}
