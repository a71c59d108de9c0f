/**
 * Search scoring (search.ts): the points of a hit, in the order the header states (matched
 * tokens, tokens in title or artist, phrase, whole words), popularity only breaking ties, the
 * hit order and the facet filters. A wrong number here reorders every store's answers alike.
 */
import { describe, expect, it } from 'vitest';
import type { MasterRow, ReleaseRow } from '../dataset.js';
import type { SearchPosition } from '../ports/index.js';
import {
  comparePositions,
  facetValuesOf,
  hasAnyFilter,
  type MasterFacetValues,
  masterSearchEntry,
  matchesFilters,
  pointsOf,
  round6,
  scoreOf,
  searchEntry,
  searchTextOf,
} from './search.js';

const hit = { type: 'master', id: 1, slug: null, name: 'Moments in Time' } as Parameters<typeof searchEntry>[0];
/** Built per call (not at import), so a mutant of searchEntry is active when it is built. */
const entryOf = () => searchEntry(hit, 'Moments in Time', ['Aphex Twin'], ['Electronic', 'Ambient', 'Time'], 9, null);
const points = (q: string, mode: 'all' | 'some' = 'all') => pointsOf(entryOf(), searchTextOf(q), mode);
/** ((matched·128 + primary)·4 + phrase)·2 + whole */
const formula = (matched: number, primary: number, phrase: number, whole: number) => ((matched * 128 + primary) * 4 + phrase) * 2 + whole;

describe('round6', () => {
  it('rounds to 6 decimals, and never answers -0', () => {
    expect(round6(1 / 3)).toBe(0.333333);
    expect(round6(0.1234567)).toBe(0.123457);
    expect(round6(2)).toBe(2);
    expect(round6(-0.0000001)).toBe(0);
  });
});

describe('searchEntry', () => {
  it('primary tokens from the name and artists, secondary ones not already primary, the phrase text per name', () => {
    expect(entryOf()).toEqual({
      hit,
      nameKey: 'moments in time',
      primary: ['moments', 'in', 'time', 'aphex', 'twin'],
      secondary: ['electronic', 'ambient'],
      phraseText: ' moments in time | aphex twin ',
      popularity: 0.1,
      facets: null,
    });
  });

  it('popularity is log10(1 + size) / 10', () => {
    expect(searchEntry(hit, 'x', [], [], 0, null).popularity).toBe(0);
    expect(searchEntry(hit, 'x', [], [], 99, null).popularity).toBe(0.2);
    expect(searchEntry(hit, 'x', [], [], 1, null).popularity).toBe(0.030103);
    expect(searchEntry(hit, 'Dahlbäck  &  Co', [], ['Co', 'House', 'house'], 0, null)).toMatchObject({
      nameKey: 'dahlback co',
      primary: ['dahlback', 'co'],
      secondary: ['house'],
      phraseText: ' dahlback co ',
    });
  });
});

describe('searchTextOf', () => {
  it('folded tokens and their key; none without a query; at most 100 tokens', () => {
    expect(searchTextOf('Aphex  TWIN!')).toEqual({ tokens: ['aphex', 'twin'], key: 'aphex twin' });
    expect(searchTextOf(null)).toEqual({ tokens: [], key: '' });
    expect(searchTextOf('')).toEqual({ tokens: [], key: '' });
    const many = searchTextOf(Array.from({ length: 101 }, (_, i) => `w${i}`).join(' '));
    expect(many.tokens).toHaveLength(100);
    expect(many.tokens.at(-1)).toBe('w99');
    expect(many.key.split(' ')).toHaveLength(100);
  });
});

describe('pointsOf', () => {
  it('the whole name: every token primary, phrase 2, whole words', () => {
    expect(points('moments in time')).toBe(formula(3, 3, 2, 1));
    expect(points('Moments In Time!')).toBe(3101);
  });

  it('a phrase within one artist name: phrase 1; the same words scattered: 0', () => {
    expect(points('aphex twin')).toBe(formula(2, 2, 1, 1));
    expect(points('twin aphex')).toBe(formula(2, 2, 0, 1));
    // Never across two names.
    expect(points('time aphex')).toBe(formula(2, 2, 0, 1));
    // A phrase is two words or more: one word found inside a name is no phrase.
    expect(points('twin')).toBe(formula(1, 1, 0, 1));
  });

  it('the last word may be a prefix (typing as you go), which is not a whole word', () => {
    expect(points('moments in ti')).toBe(formula(3, 3, 1, 0));
    expect(points('mom')).toBe(formula(1, 1, 0, 0));
  });

  it('a word in genre/style only counts as matched, not primary', () => {
    expect(points('ambient')).toBe(formula(1, 0, 0, 1));
    expect(points('amb')).toBe(formula(1, 0, 0, 0));
    expect(points('ambient twin')).toBe(formula(2, 1, 0, 1));
    // A token matching only inside a word is no match.
    expect(points('bient')).toBeNull();
  });

  it('all: a hit only with every token; some: with at least one, scored on those', () => {
    expect(points('ambient house')).toBeNull();
    expect(points('ambient house', 'some')).toBe(formula(1, 0, 0, 0));
    expect(points('house time', 'some')).toBe(formula(1, 1, 0, 0));
    expect(points('house', 'some')).toBeNull();
    expect(points('house')).toBeNull();
  });

  it('orders: more words in title/artist beat genre words; all words beat some; the exact name beats a phrase', () => {
    expect(points('moments ambient')).toBeGreaterThan(points('electronic ambient') as number);
    expect(points('moments ambient', 'some')).toBeGreaterThan(points('moments house', 'some') as number);
    expect(points('moments in time')).toBeGreaterThan(points('moments in ti') as number);
  });
});

describe('scoreOf', () => {
  it('points plus popularity; popularity alone without a query; null for no hit (all by default)', () => {
    expect(scoreOf(entryOf(), searchTextOf('aphex twin'))).toBe(2067.1);
    expect(scoreOf(entryOf(), searchTextOf(null))).toBe(0.1);
    expect(scoreOf(entryOf(), searchTextOf('ambient house'))).toBeNull();
    expect(scoreOf(entryOf(), searchTextOf('ambient house'), 'some')).toBe(1024.1);
  });
});

describe('comparePositions', () => {
  it('score descending, then master, artist, label, festival, then id ascending', () => {
    const positions: SearchPosition[] = [
      { score: 1, type: 'festival', id: 1 },
      { score: 2, type: 'label', id: 9 },
      { score: 1, type: 'artist', id: 5 },
      { score: 1, type: 'artist', id: 3 },
      { score: 1, type: 'master', id: 8 },
      { score: 1, type: 'label', id: 2 },
      { score: 3.5, type: 'festival', id: 4 },
    ];
    expect(positions.sort(comparePositions).map((p) => `${p.score} ${p.type} ${p.id}`)).toEqual([
      '3.5 festival 4',
      '2 label 9',
      '1 master 8',
      '1 artist 3',
      '1 artist 5',
      '1 label 2',
      '1 festival 1',
    ]);
    expect(comparePositions({ score: 1, type: 'master', id: 1 }, { score: 1, type: 'master', id: 1 })).toBe(0);
  });
});

const credit = (discogs_id: number, name: string) => ({ discogs_id, name, anv: null, join: null, role: null });
const master: MasterRow = {
  master_id: 7,
  title: 'Selected Ambient Works',
  year: 1992,
  main_release_id: 70,
  artists: [credit(45, 'Aphex Twin'), credit(45, 'AFX'), credit(46, 'Other')],
  genres: ['Electronic'],
  styles: ['Ambient', 'IDM'],
  data_quality: null,
};
const main: ReleaseRow = {
  release_id: 70,
  master_id: 7,
  is_main_release: true,
  title: 'Selected Ambient Works',
  artists: [],
  extra_artists: [],
  labels: [
    { discogs_id: 5, name: 'Apollo', catno: 'AMB 3922' },
    { discogs_id: null, name: 'Self Released', catno: null },
    { discogs_id: 6, name: 'Apollo', catno: null },
    { discogs_id: 8, name: 'Unknown Ref', catno: null },
  ],
  formats: [
    { name: 'Vinyl', qty: 2, descriptions: [] },
    { name: 'CD', qty: 1, descriptions: [] },
    { name: 'Vinyl', qty: 1, descriptions: [] },
  ],
  genres: [],
  styles: [],
  country: 'UK',
  released: '1992',
  data_quality: null,
};
const labelRef = (id: number) => (id === 5 ? { slug: 'apollo-records', name: 'Apollo Records' } : id === 6 ? { slug: null, name: 'R&S' } : undefined);

describe('masterSearchEntry', () => {
  it('the hit with one credit per artist cluster, the fields, and the facet values as served', () => {
    const made = masterSearchEntry(master, main, 99, labelRef, (id) => (id === 45 ? 'aphex-twin' : null));
    expect(made.hit).toEqual({
      type: 'master',
      id: 7,
      slug: null,
      name: 'Selected Ambient Works',
      year: 1992,
      artists: ['Aphex Twin', 'AFX', 'Other'],
      genres: ['Electronic'],
      styles: ['Ambient', 'IDM'],
      credits: [
        { cluster_id: 181, slug: 'aphex-twin', name: 'Aphex Twin' },
        { cluster_id: 185, slug: null, name: 'Other' },
      ],
    });
    expect(made.primary).toEqual(['selected', 'ambient', 'works', 'aphex', 'twin', 'afx', 'other']);
    expect(made.secondary).toEqual(['electronic', 'idm']);
    expect(made.phraseText).toBe(' selected ambient works | aphex twin | afx | other ');
    expect(made.popularity).toBe(0.2);
    expect(made.facets).toEqual({
      genre: ['Electronic'],
      style: ['Ambient', 'IDM'],
      format: ['Vinyl', 'CD'],
      country: ['UK'],
      label: ['Apollo', 'Self Released', 'Unknown Ref'],
      labelKeys: new Set(['apollo', 'apollo-records', 'apollo records', 'self released', 'r&s', 'unknown ref']),
      year: 1992,
    });
  });

  it('without a main release: no format, country or label; without slugs: null', () => {
    const made = masterSearchEntry(master, null, 0, labelRef);
    expect(made.facets).toMatchObject({ format: [], country: [], label: [], labelKeys: new Set(), year: 1992 });
    expect(made.hit.credits?.map((c) => c.slug)).toEqual([null, null]);
    expect(masterSearchEntry(master, { ...main, country: null }, 0, labelRef).facets?.country).toEqual([]);
    expect(masterSearchEntry(master, { ...main, country: '' }, 0, labelRef).facets?.country).toEqual([]);
  });
});

const facets: MasterFacetValues = {
  genre: ['Electronic', 'Electronic'],
  style: ['Ambient'],
  format: ['Vinyl'],
  country: ['UK'],
  label: ['Apollo', 'Apollo', 'R&S'],
  labelKeys: new Set(['apollo', 'apollo-records', 'r&s']),
  year: 1992,
};

describe('facet filters', () => {
  it('hasAnyFilter: some filter with a value', () => {
    expect(hasAnyFilter({})).toBe(false);
    expect(hasAnyFilter({ genre: [], style: undefined })).toBe(false);
    expect(hasAnyFilter({ genre: ['x'] })).toBe(true);
    expect(hasAnyFilter({ genre: [], country: ['UK'] })).toBe(true);
    expect(hasAnyFilter({ year_from: 1990 })).toBe(true);
    expect(hasAnyFilter({ year_to: 0 })).toBe(true);
  });

  it('matchesFilters: any value of a facet (case-insensitive), all facets, years inclusive', () => {
    const yes = (filters: Parameters<typeof matchesFilters>[1]) => matchesFilters(facets, filters);
    expect(yes({})).toBe(true);
    expect(yes({ genre: [], label: [] })).toBe(true);
    expect(yes({ genre: ['electronic'] })).toBe(true);
    expect(yes({ genre: ['House', 'ELECTRONIC'] })).toBe(true);
    expect(yes({ genre: ['House'] })).toBe(false);
    expect(yes({ style: ['ambient'] })).toBe(true);
    expect(yes({ style: ['Techno'] })).toBe(false);
    expect(yes({ format: ['vinyl'] })).toBe(true);
    expect(yes({ format: ['CD'] })).toBe(false);
    expect(yes({ country: ['uk'] })).toBe(true);
    expect(yes({ country: ['US'] })).toBe(false);
    expect(yes({ label: ['APOLLO-RECORDS'] })).toBe(true);
    expect(yes({ label: ['warp', 'R&S'] })).toBe(true);
    expect(yes({ label: ['Warp'] })).toBe(false);
    expect(yes({ year_from: 1992, year_to: 1992 })).toBe(true);
    expect(yes({ year_from: 1993 })).toBe(false);
    expect(yes({ year_to: 1991 })).toBe(false);
    expect(yes({ genre: ['Electronic'], country: ['US'] })).toBe(false);
    expect(yes({ genre: ['Electronic'], style: ['Techno'] })).toBe(false);
    expect(yes({ format: ['Vinyl'], country: ['US'] })).toBe(false);
    expect(yes({ country: ['UK'], format: ['CD'] })).toBe(false);
    expect(matchesFilters({ ...facets, year: null }, { year_from: 1000 })).toBe(false);
    expect(matchesFilters({ ...facets, year: null }, { year_to: 2999 })).toBe(false);
    expect(matchesFilters({ ...facets, year: null }, { genre: ['Electronic'] })).toBe(true);
  });

  it('facetValuesOf: the distinct values; both year facets count the year', () => {
    expect(facetValuesOf(facets, 'genre')).toEqual(['Electronic']);
    expect(facetValuesOf(facets, 'label')).toEqual(['Apollo', 'R&S']);
    expect(facetValuesOf(facets, 'country')).toEqual(['UK']);
    expect(facetValuesOf(facets, 'year_from')).toEqual([1992]);
    expect(facetValuesOf(facets, 'year_to')).toEqual([1992]);
    expect(facetValuesOf({ ...facets, year: null }, 'year_from')).toEqual([]);
    expect(facetValuesOf({ ...facets, year: null }, 'year_to')).toEqual([]);
  });
});
