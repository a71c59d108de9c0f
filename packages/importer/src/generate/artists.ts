/** One ArtistRow from its id: name, identity links (groups/members/aliases) and external ids. */
import type { ArtistRow, DiscogsNameRef } from '@catalogue/core';
import { spotifyId, uuidV4 } from './ids.js';
import { bandcampHostOf, nameAt, PERSON_NAMES, slugOf } from './names.js';
import { rngFor } from './prng.js';
import { DATA_QUALITIES, DATA_QUALITY_WEIGHTS } from './taxonomy.js';
import { artistName, artistTraits, blockPosition, blockShape, isCovered, type World } from './world.js';

export function bandcampUrlOf(world: World, id: number): string {
  return `https://${bandcampHostOf(artistName(world, id))}.bandcamp.com`;
}

function ref(world: World, id: number): DiscogsNameRef {
  return { discogs_id: id, name: artistName(world, id) };
}

export function artistAt(world: World, id: number): ArtistRow {
  const rng = rngFor(world.seed, 'artist', id);
  const traits = artistTraits(world, id);
  const name = artistName(world, id);
  const shape = blockShape(world, id);
  const pos = blockPosition(id);
  const blockStart = id - pos;
  const exists = (other: number): boolean => other >= 1 && other <= world.sizes.artists;

  const members: DiscogsNameRef[] = [];
  const groups: DiscogsNameRef[] = [];
  const aliases: DiscogsNameRef[] = [];
  if (shape.members > 0 && pos === 0) {
    for (let m = 1; m <= shape.members; m++) if (exists(id + m)) members.push(ref(world, id + m));
  } else if (shape.members > 0 && pos <= shape.members) {
    groups.push(ref(world, blockStart));
  }
  if (shape.aliasPair && (pos === 6 || pos === 7)) {
    const partner = pos === 6 ? id + 1 : id - 1;
    if (exists(partner)) aliases.push(ref(world, partner));
  }

  const plainName = name.replace(/ \(\d+\)$/, '');
  let realName: string | null = null;
  if (traits.kind === 'person' && rng.chance(0.6)) realName = plainName;
  if (traits.kind === 'project') {
    realName = aliases[0] ? aliases[0].name.replace(/ \(\d+\)$/, '') : nameAt(PERSON_NAMES, rng.int(0, PERSON_NAMES.capacity - 1));
  }

  const style = traits.styles[0] ?? traits.genre.name;
  const what = traits.kind === 'band' ? 'band' : traits.kind === 'project' ? 'producer' : rng.pick(['musician', 'singer-songwriter', 'producer', 'composer']);
  const profile = rng.chance(0.8) ? `${style} ${what} from ${traits.country}, active since ${traits.careerStart}.` : null;

  const nameVariations: string[] = [];
  if (rng.chance(0.2)) nameVariations.push(plainName.toUpperCase());
  if (plainName.startsWith('The ') && rng.chance(0.6)) nameVariations.push(plainName.slice(4));

  const covered = isCovered(world, id);
  const urls: string[] = [];
  if (covered) urls.push(bandcampUrlOf(world, id));
  if (rng.chance(0.3)) urls.push(`https://www.${slugOf(plainName).replace(/-/g, '')}.com`);
  if (rng.chance(0.2)) urls.push(`https://soundcloud.com/${slugOf(name)}`);

  return {
    discogs_id: id,
    name,
    real_name: realName,
    profile,
    data_quality: rng.weighted(DATA_QUALITIES, DATA_QUALITY_WEIGHTS),
    name_variations: nameVariations,
    aliases,
    members,
    groups,
    urls,
    mbid: rng.chance(covered ? 0.85 : 0.35) ? uuidV4(rng) : null,
    spotify_id: rng.chance(covered ? 0.7 : 0.25) ? spotifyId(rng) : null,
  };
}
