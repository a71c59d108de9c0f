/**
 * Name spaces: each is a few equally likely templates, and `nameAt(space, x)` is injective for
 * x < capacity (template = x mod T, index = ⌊x / T⌋ decoded in mixed radix). Callers scatter x
 * with a seeded permutation, so neighbouring ids get unrelated names, and choose a period
 * slightly below the population so a few names repeat, as on Discogs, where the later holder
 * is shown as "Name (2)".
 */
import {
  ADJECTIVES,
  CODAS,
  FESTIVAL_FIRST,
  FESTIVAL_SECOND,
  FESTIVAL_SUFFIXES,
  FIRST_NAMES,
  GROUP_SUFFIXES,
  LABEL_PLACES,
  LABEL_SUFFIXES,
  LABEL_WORDS,
  LAST_NAMES,
  NOUNS,
  ONSETS,
  PLURAL_NOUNS,
} from './words.js';

type Template = { readonly size: number; render(index: number): string };

export interface NameSpace {
  readonly templates: readonly Template[];
  /** Number of distinct names: templates × smallest template. */
  readonly capacity: number;
}

function space(templates: Template[]): NameSpace {
  const smallest = Math.min(...templates.map((t) => t.size));
  return { templates, capacity: smallest * templates.length };
}

/** A template over the cartesian product of lists, decoded in mixed radix. */
function product(lists: readonly (readonly string[])[], join: (parts: string[]) => string): Template {
  const size = lists.reduce((n, l) => n * l.length, 1);
  return {
    size,
    render(index) {
      const parts: string[] = [];
      let rest = index;
      for (const list of lists) {
        parts.push(list[rest % list.length] as string);
        rest = Math.floor(rest / list.length);
      }
      return join(parts);
    },
  };
}

export const SYNTH_SURNAMES: readonly string[] = ONSETS.flatMap((o) => CODAS.map((c) => o + c));

export const PERSON_NAMES = space([
  product([FIRST_NAMES, LAST_NAMES], ([f, l]) => `${f} ${l}`),
  product([FIRST_NAMES, SYNTH_SURNAMES], ([f, l]) => `${f} ${l}`),
]);

export const BAND_NAMES = space([
  product([ADJECTIVES, PLURAL_NOUNS], ([a, n]) => `The ${a} ${n}`),
  product([ADJECTIVES, PLURAL_NOUNS], ([a, n]) => `${a} ${n}`),
  product([NOUNS, GROUP_SUFFIXES], ([n, s]) => `${n} ${s}`),
  product([SYNTH_SURNAMES, LAST_NAMES], ([a, b]) => `${a} & ${b}`),
]);

export const PROJECT_NAMES = space([
  product([NOUNS, ADJECTIVES], ([n, a]) => `${a} ${n}`),
  product([SYNTH_SURNAMES], ([n]) => `DJ ${n}`),
  product([NOUNS, CODAS], ([n, c]) => `${n}${c}`),
  product([ADJECTIVES, ONSETS], ([a, o]) => `${o}${(a ?? '').toLowerCase()}`),
]);

export const LABEL_NAMES = space([
  product([LABEL_WORDS, LABEL_SUFFIXES], ([w, s]) => `${w} ${s}`),
  product([ADJECTIVES, LABEL_SUFFIXES], ([a, s]) => `${a} ${s}`),
  product([LABEL_PLACES, LABEL_SUFFIXES, ['', 'Sound ']], ([p, s, m]) => `${p} ${m}${s}`),
  product([NOUNS, LABEL_SUFFIXES], ([n, s]) => `${n} ${s}`),
]);

export const FESTIVAL_NAMES = space([
  product([FESTIVAL_FIRST, FESTIVAL_SECOND, FESTIVAL_SUFFIXES], ([a, b, s]) => `${a} ${b}${s ? ` ${s}` : ''}`),
  product([[...FESTIVAL_FIRST, ...LABEL_WORDS], FESTIVAL_SECOND], ([a, b]) => `${a} ${b}`),
]);

export function nameAt(names: NameSpace, index: number): string {
  const t = names.templates.length;
  const template = names.templates[index % t] as Template;
  return template.render(Math.floor(index / t) % template.size);
}

/** Discogs shows the n-th holder of a name as "Name (n)". */
export function disambiguate(name: string, copy: number): string {
  return copy <= 1 ? name : `${name} (${copy})`;
}

/** Lowercase ASCII slug: accents stripped, runs of other characters → '-'. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A Bandcamp subdomain: the slug without dashes (bandcamp hosts are [a-z0-9]). */
export function bandcampHostOf(name: string): string {
  return slugOf(name).replace(/-/g, '') || 'artist';
}
