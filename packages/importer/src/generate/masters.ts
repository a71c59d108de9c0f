/**
 * One master and its releases from its slot in the masters stream. Slots are laid out as
 *   [0, plants)                    the planted tastemaker/lucky picks (signal-plan.ts)
 *   [plants, plants + artists)     one master per artist, so every artist has a discography
 *   [.., masters)                  main artist drawn Zipf–Mandelbrot over popularity ranks
 * and master ids scatter the slots over 1..masters with a seeded permutation. Release ids are
 * (master_id − 1)·4 + 1..4: the main release first, then up to three reissues.
 */
import type { CreditRow, FormatRow, LabelCreditRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { dayOfDate, isoOf, yearOf } from './dates.js';
import { catnoOf } from './labels.js';
import type { Rng } from './prng.js';
import { rngFor } from './prng.js';
import { randomLabel } from './signal-plan.js';
import { COUNTRIES, COUNTRY_WEIGHTS, DATA_QUALITIES, DATA_QUALITY_WEIGHTS, FORMATS, type FormatTemplate, GENRE_WEIGHTS, GENRES } from './taxonomy.js';
import { type TitleVocabulary, zipfWord } from './vocabulary.js';
import { ADJECTIVES, NOUNS, TITLE_PATTERNS, TITLE_WORDS } from './words.js';
import { artistName, artistTraits, isSpecial, labelName, popularArtist, type World } from './world.js';

export const RELEASES_PER_MASTER = 4;

export interface MasterWithReleases {
  master: MasterRow;
  releases: ReleaseRow[];
}

const EXTRA_ROLES = ['Producer', 'Mastered By', 'Written-By', 'Mixed By', 'Artwork', 'Photography By', 'Remix', 'Engineer'];

function titleOf(rng: Rng, festivalPlace: string, vocabulary: TitleVocabulary): string {
  const pattern = rng.pick(TITLE_PATTERNS);
  if (vocabulary === 'zipf') {
    // Every word slot drawn by frequency from the large vocabulary (vocabulary.ts, issue 14).
    return pattern
      .replace('{A}', zipfWord(rng.next()))
      .replace('{N}', zipfWord(rng.next()))
      .replace('{M}', zipfWord(rng.next()))
      .replace('{P}', festivalPlace)
      .replace('{K}', String(rng.int(1, 4)));
  }
  return pattern
    .replace('{A}', rng.pick(ADJECTIVES))
    .replace('{N}', rng.pick(TITLE_WORDS))
    .replace('{M}', rng.pick(rng.chance(0.5) ? TITLE_WORDS : NOUNS))
    .replace('{P}', festivalPlace)
    .replace('{K}', String(rng.int(1, 4)));
}

function credit(world: World, id: number, join: string | null, role: string | null): CreditRow {
  return { discogs_id: id, name: artistName(world, id), anv: null, join, role };
}

/** A non-planted artist (planted artists only get the masters the plan gives them). */
function ordinaryArtist(world: World, rng: Rng): number {
  let id = popularArtist(world, rng.next());
  for (let tries = 0; tries < 32 && isSpecial(world, id); tries++) id = popularArtist(world, rng.next());
  return id;
}

function formatFor(rng: Rng, year: number): FormatRow {
  const fitting = FORMATS.filter((f) => f.years[0] <= year && year <= f.years[1]);
  const pool = fitting.length > 0 ? fitting : FORMATS;
  const template: FormatTemplate = rng.weighted(
    pool,
    pool.map((f) => f.weight),
  );
  const qty = template.descriptions.includes('LP') && rng.chance(0.15) ? 2 : 1;
  return { name: template.name, qty, descriptions: [...template.descriptions] };
}

function dayInYear(rng: Rng, year: number, world: World): number {
  const day = dayOfDate(year, rng.int(1, 12), rng.int(1, 28));
  return Math.min(day, world.asOfDay);
}

export function masterSlotCount(world: World): number {
  return world.sizes.masters;
}

export function masterAt(world: World, slot: number): MasterWithReleases {
  const rng = rngFor(world.seed, 'master', slot);
  const masterId = world.masterIds.forward(slot) + 1;
  const plants = world.plan.plants;
  let artistId: number;
  let labelId: number;
  let day: number;
  let planted = false;
  if (slot < plants.length) {
    const plant = plants[slot] as (typeof plants)[number];
    ({ artistId, labelId, day } = plant);
    planted = true;
  } else if (slot < plants.length + world.sizes.artists) {
    artistId = slot - plants.length + 1;
    labelId = randomLabel(world, rng);
    const special = world.plan.artists.get(artistId);
    if (special?.surge) day = rng.int(special.surge.startDay, world.asOfDay);
    else if (special) day = world.asOfDay - rng.int(200, 1200);
    else {
      const traits = artistTraits(world, artistId);
      day = dayInYear(rng, rng.int(traits.careerStart, traits.careerEnd), world);
    }
  } else {
    artistId = ordinaryArtist(world, rng);
    labelId = randomLabel(world, rng);
    const traits = artistTraits(world, artistId);
    day = dayInYear(rng, rng.int(traits.careerStart, traits.careerEnd), world);
  }

  const traits = artistTraits(world, artistId);
  const year = yearOf(day);
  const genres = [traits.genre.name];
  if (rng.chance(0.12)) {
    const second = rng.weighted(GENRES, GENRE_WEIGHTS).name;
    if (second !== traits.genre.name) genres.push(second);
  }
  const styles: string[] = [];
  for (const style of [rng.pick(traits.styles), rng.pick(traits.genre.styles)]) {
    if (!styles.includes(style) && (styles.length === 0 || rng.chance(0.5))) styles.push(style);
  }
  const title = titleOf(rng, traits.country, world.titleVocabulary);

  const artists: CreditRow[] = [credit(world, artistId, null, null)];
  if (!planted && rng.chance(0.08)) {
    const second = ordinaryArtist(world, rng);
    if (second !== artistId) {
      (artists[0] as CreditRow).join = rng.pick(['&', 'Feat.', 'Vs.', ',']);
      artists.push(credit(world, second, null, null));
    }
  }
  const extraArtists: CreditRow[] = [];
  const extras = rng.int(0, 2);
  for (let k = 0; k < extras; k++) extraArtists.push(credit(world, popularArtist(world, rng.next()), null, rng.pick(EXTRA_ROLES)));

  const masterQuality = rng.weighted(DATA_QUALITIES, DATA_QUALITY_WEIGHTS);
  const firstReleaseId = (masterId - 1) * RELEASES_PER_MASTER + 1;
  const labelCredit = (label: number): LabelCreditRow => ({ discogs_id: label, name: labelName(world, label), catno: catnoOf(world, label, rng.int(1, 400)) });
  const release = (releaseId: number, releaseDay: number, main: boolean, label: number, country: string): ReleaseRow => ({
    release_id: releaseId,
    master_id: masterId,
    is_main_release: main,
    title,
    artists,
    extra_artists: extraArtists,
    labels: [labelCredit(label)],
    formats: [formatFor(rng, yearOf(releaseDay))],
    genres,
    styles,
    country,
    released: isoOf(releaseDay),
    data_quality: rng.weighted(DATA_QUALITIES, DATA_QUALITY_WEIGHTS),
  });

  const mainCountry = rng.chance(0.6) ? traits.country : rng.weighted(COUNTRIES, COUNTRY_WEIGHTS);
  const releases = [release(firstReleaseId, day, true, labelId, mainCountry)];
  // Reissues in other countries/formats, later than the original and never after as_of.
  const reissues = rng.chance(0.3) ? rng.int(1, RELEASES_PER_MASTER - 1) : 0;
  for (let k = 1; k <= reissues; k++) {
    const reissueYear = Math.min(world.asOfYear, year + rng.int(0, 30));
    const reissueDay = Math.max(day, dayInYear(rng, reissueYear, world));
    const label = rng.chance(0.4) ? labelId : randomLabel(world, rng);
    releases.push(release(firstReleaseId + k, reissueDay, false, label, rng.weighted(COUNTRIES, COUNTRY_WEIGHTS)));
  }

  const master: MasterRow = {
    master_id: masterId,
    title,
    year,
    main_release_id: firstReleaseId,
    artists,
    genres,
    styles,
    data_quality: masterQuality,
  };
  return { master, releases };
}
