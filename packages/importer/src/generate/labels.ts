/** One LabelRow from its id; labels come in blocks of 10 where position 0 may parent 1–2 sublabels. */
import type { DiscogsNameRef, LabelRow } from '@catalogue/core';
import { slugOf } from './names.js';
import { rngFor } from './prng.js';
import { DATA_QUALITIES, DATA_QUALITY_WEIGHTS, GENRE_WEIGHTS, GENRES } from './taxonomy.js';
import { isTastemakerLabel, labelName, type World } from './world.js';

const BLOCK = 10;

function sublabelCount(world: World, id: number): number {
  const rng = rngFor(world.seed, 'label-block', Math.floor((id - 1) / BLOCK));
  return rng.chance(0.2) ? rng.int(1, 2) : 0;
}

function ref(world: World, id: number): DiscogsNameRef {
  return { discogs_id: id, name: labelName(world, id) };
}

/** A catalogue number in one of the label's house styles ("NGR012", "HAL-043", "BLT12-003", "SK 026"). */
export function catnoOf(world: World, labelId: number, number: number): string {
  const rng = rngFor(world.seed, 'label-catno', labelId);
  const words = labelName(world, labelId)
    .replace(/ \(\d+\)$/, '')
    .split(/\s+/);
  const initials = words
    .map((w) => w[0] ?? '')
    .join('')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
  const prefix = initials.length >= 2 ? initials : (words[0] ?? 'X').slice(0, 3).toUpperCase();
  const padded = String(number).padStart(3, '0');
  switch (rng.int(0, 4)) {
    case 0:
      return `${prefix}${padded}`;
    case 1:
      return `${prefix} ${number}`;
    case 2:
      return `${prefix}-${padded}`;
    case 3:
      return `${prefix}12-${padded}`;
    default:
      return `${prefix}CD${padded}`;
  }
}

export function labelAt(world: World, id: number): LabelRow {
  const rng = rngFor(world.seed, 'label', id);
  const name = labelName(world, id);
  const pos = (id - 1) % BLOCK;
  const blockStart = id - pos;
  const subs = sublabelCount(world, id);
  const sublabels: DiscogsNameRef[] = [];
  let parent: DiscogsNameRef | null = null;
  if (pos === 0) {
    for (let k = 1; k <= subs; k++) if (id + k <= world.sizes.labels) sublabels.push(ref(world, id + k));
  } else if (pos <= subs) {
    parent = ref(world, blockStart);
  }
  const founded = world.asOfYear - Math.floor(60 * rng.next() ** 1.5);
  const focus = rng.weighted(GENRES, GENRE_WEIGHTS);
  const slug = slugOf(name.replace(/ \(\d+\)$/, '')).replace(/-/g, '');
  const urls: string[] = [];
  if (rng.chance(0.5)) urls.push(`https://www.${slug}.com`);
  if (isTastemakerLabel(world, id) || rng.chance(0.25)) urls.push(`https://${slug}.bandcamp.com`);
  return {
    discogs_id: id,
    name,
    profile: rng.chance(0.7) ? `Independent label founded in ${founded}, releasing mostly ${focus.styles.slice(0, 2).join(' and ')}.` : null,
    contact_info: rng.chance(0.3) ? `info@${slug}.com` : null,
    data_quality: rng.weighted(DATA_QUALITIES, DATA_QUALITY_WEIGHTS),
    urls,
    parent,
    sublabels,
  };
}
