/**
 * The catalogue as per-table iterables. Each table is generated lazily from per-entity PRNG
 * streams, so a loader can write millions of rows in constant memory and in any table order;
 * iterating a table twice yields the same rows. `generateCatalogue` is these iterables
 * collected, so the two can never disagree.
 */
import type { ArtistRow, BandcampRow, FestivalRow, LabelRow, MasterRow, ReleaseRow } from '@catalogue/core';
import { artistAt } from './artists.js';
import { bandcampAt } from './bandcamp.js';
import { festivalAt } from './festivals.js';
import { labelAt } from './labels.js';
import { type MasterWithReleases, masterAt } from './masters.js';
import { buildSignalPlan } from './signal-plan.js';
import { DEFAULT_AS_OF, DEFAULT_SEED, resolveSizes, type Sizes } from './sizes.js';
import type { TitleVocabulary } from './vocabulary.js';
import { createWorld, type World } from './world.js';

export interface GenerateOptions {
  seed?: number;
  scale?: Partial<Sizes>;
  /** 'YYYY-MM-DD'; the last weekly Bandcamp observation. */
  asOf?: string;
  /**
   * Where master titles draw their words: 'demo' (the default; the demo catalogue and the tests
   * built on its titles) or 'zipf', a large Zipf-distributed vocabulary, which the scale
   * catalogue uses so that title words are as selective as real ones (vocabulary.ts).
   */
  titleVocabulary?: TitleVocabulary;
}

export interface CatalogueStream {
  readonly seed: number;
  readonly asOf: string;
  readonly sizes: Readonly<Sizes>;
  artists(): Iterable<ArtistRow>;
  labels(): Iterable<LabelRow>;
  /** Each master with its releases, in one pass (what a loader writing both tables wants). */
  mastersWithReleases(): Iterable<MasterWithReleases>;
  masters(): Iterable<MasterRow>;
  releases(): Iterable<ReleaseRow>;
  festivals(): Iterable<FestivalRow>;
  bandcamp(): Iterable<BandcampRow>;
}

function* range<T>(from: number, to: number, make: (i: number) => T): Generator<T> {
  for (let i = from; i <= to; i++) yield make(i);
}

export function worldFor(options: GenerateOptions = {}): World {
  const seed = (options.seed ?? DEFAULT_SEED) >>> 0;
  const world = createWorld(seed, resolveSizes(options.scale), options.asOf ?? DEFAULT_AS_OF, options.titleVocabulary);
  world.plan = buildSignalPlan(world);
  return world;
}

export function streamCatalogue(options: GenerateOptions = {}): CatalogueStream {
  const world = worldFor(options);
  const { sizes } = world;
  return {
    seed: world.seed,
    asOf: world.asOf,
    sizes,
    artists: () => range(1, sizes.artists, (id) => artistAt(world, id)),
    labels: () => range(1, sizes.labels, (id) => labelAt(world, id)),
    mastersWithReleases: () => range(0, sizes.masters - 1, (slot) => masterAt(world, slot)),
    masters: () => range(0, sizes.masters - 1, (slot) => masterAt(world, slot).master),
    *releases() {
      for (let slot = 0; slot < sizes.masters; slot++) yield* masterAt(world, slot).releases;
    },
    festivals: () => range(1, sizes.festivals, (id) => festivalAt(world, id)),
    *bandcamp() {
      for (let id = 1; id <= sizes.artists; id++) {
        const row = bandcampAt(world, id);
        if (row) yield row;
      }
    },
  };
}
