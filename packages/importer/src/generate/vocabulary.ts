/**
 * Title vocabularies. `demo` is the small word list the demo catalogue (and every test built on
 * it) has always drawn titles from: ~60 words, so at a million masters every word is in tens of
 * thousands of titles and no query is selective (issue 14 item 3). `zipf` is what the scale
 * catalogue uses: a large vocabulary whose word ranks follow a Zipf–Mandelbrot law, as words of
 * real titles do — a head of common real words ("love", "night", "live") and a long tail of
 * rare invented ones, so a query is sometimes a very common word and mostly a rare one.
 */
import { zipfRank } from './zipf.js';

export type { TitleVocabulary } from './world.js';

const split = (text: string): readonly string[] => text.trim().split(/\s+/);

/** The head of the Zipf vocabulary, most frequent first: common words of real record titles. */
const HEAD_WORDS = split(`
Love Night Live Time World Life Dance Blue Heart Dream Home Light Fire Rain Sun Moon Man Girl Baby Day
Song Music Soul City Road Sky Star Way Dark Gold Wild New Black Red White Summer Winter Ocean River Mountain
Deep Lost Free Sweet Golden Silver Heaven Paradise Memory Shadow Echo Storm Thunder Storm Street Train Radio
Machine Garden Mirror Ghost Fever Velvet Midnight Morning Evening Sunday Friday Island Desert Forest Valley
Harbour Horizon Signal Motion Distance Shelter Silence Season Bloom Salt Wire Tide Hollow Voltage Satellite
Sanctuary Frequency Ritual Parallel Orbit Tender Nerve Static Glass Dust Drift Neon Blossom Ember Raven Falcon
Kestrel Meridian Lantern Orchid Tundra Monsoon Quarry Atlas Cinder Heron Prism Delta Nomad Cipher Vessel Aurora
Basalt Canyon Gale Juniper Lattice Mantra Nimbus Oracle Pylon Quartz Thicket Umbra Vortex Willow Zephyr Beacon
Cascade Dynamo Fathom Glacier Inlet Kelp Lagoon Magnet Oasis Plume Relic Spire Tarn Copper Iron Crystal Amber
Scarlet Lunar Distant Quiet Electric Paper Broken Crimson Pale Northern Frozen Hidden Burning Lonely Secret
Cosmic Restless Faded Sleeping Wandering Savage Sunken Hazy Bright Feral Ivory Cobalt Tidal Solar Marble Indigo
Sacred Rolling Magnetic Weightless Luminous Violet Emerald Honey Stone Western Eastern Drifting Falling Hungry
`);

/** Syllables the tail is spelled from ("ka" + "lor" + "ven" → "Kalorven"). */
const ONSETS = split('b br c ch d dr f g gr h j k kl l m n p pr qu r s sh st t tr v w y z');
const NUCLEI = split('a e i o u ai ea ou y');
const CODAS = split('_ n r l s th m x');
const SYLLABLES: readonly string[] = ONSETS.flatMap((onset) => NUCLEI.flatMap((nucleus) => CODAS.map((coda) => onset + nucleus + (coda === '_' ? '' : coda))));

/** Distinct words: enough that most of the tail is rare at a million masters. */
export const ZIPF_VOCABULARY_SIZE = 200_000;
/** Mandelbrot's offset for English word frequencies (≈ 2.7): the head is heavy, not absurd. */
const ZIPF_OFFSET = 2.7;

const HEAD: readonly string[] = [...new Set(HEAD_WORDS)];

/** The word of a frequency rank (0 = most frequent): a head word, then two-syllable inventions (mixed radix; a few spell alike). */
export function vocabularyWord(rank: number): string {
  if (rank < HEAD.length) return HEAD[rank] as string;
  const rest = rank - HEAD.length;
  const n = SYLLABLES.length;
  const first = rest % n;
  // (first, second) is injective for rest < n²; the offset keeps the first n words from doubling a syllable.
  const word = (SYLLABLES[first] as string) + (SYLLABLES[(Math.floor(rest / n) + first * 37 + 11) % n] as string);
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A title word drawn by frequency: u uniform in [0, 1). */
export function zipfWord(u: number): string {
  return vocabularyWord(zipfRank(u, ZIPF_VOCABULARY_SIZE, ZIPF_OFFSET));
}
