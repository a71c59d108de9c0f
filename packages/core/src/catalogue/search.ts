/**
 * Search scoring, the same for every store: one entry per master and agent with its folded
 * tokens, its popularity and, for masters, the facet values filters and counts read; the score
 * of an entry for a query, the hit order and the facet filters. The memory catalogue searches
 * these entries directly; PostgreSQL stores them as search documents.
 */

import type { MasterRow, ReleaseRow } from '../dataset.js';
import type { FacetFilters, FacetName, SearchPosition } from '../ports/index.js';
import type { SearchHitData } from '../schemas/records.js';
import { formatNamesOf } from './master-record.js';
import { nameKey, tokensOf } from './text.js';

export type HitType = SearchHitData['type'];
export const TYPE_ORDER: Record<HitType, number> = { master: 0, artist: 1, label: 2, festival: 3 };

/** Facet values of a master as served (original spelling). */
export interface MasterFacetValues {
  genre: string[];
  style: string[];
  format: string[];
  country: string[];
  /** Credited label names. */
  label: string[];
  /** Every spelling a label filter may use: credited and canonical names and slugs, lowercase. */
  labelKeys: Set<string>;
  year: number | null;
}

export interface SearchEntry {
  hit: Omit<SearchHitData, 'score'>;
  /** The folded name, for exact full-name matches (a master's title). */
  nameKey: string;
  /** Tokens a query may match: the name, a master's artist names, genres and styles, a festival's genres. */
  tokens: string[];
  tokenSet: Set<string>;
  /** log10(1 + size) / 10, where size is releases (master), masters (artist, label) or lineup artists (festival). */
  popularity: number;
  facets: MasterFacetValues | null;
}

export function searchEntry(hit: Omit<SearchHitData, 'score'>, name: string, extraText: string[], size: number, facets: MasterFacetValues | null): SearchEntry {
  const tokens = [...new Set([name, ...extraText].flatMap(tokensOf))];
  return { hit, nameKey: nameKey(name), tokens, tokenSet: new Set(tokens), popularity: Math.log10(1 + size) / 10, facets };
}

/**
 * The search entry of a master, with its facet values: the one definition the memory index
 * and the PostgreSQL search documents are both built from. `labelRef` gives the slug and
 * canonical name of a credited label id, when known.
 */
export function masterSearchEntry(
  master: MasterRow,
  main: ReleaseRow | null,
  releaseCount: number,
  labelRef: (labelId: number) => { slug: string | null; name: string } | undefined,
): SearchEntry {
  const labelKeys = new Set<string>();
  for (const credit of main?.labels ?? []) {
    labelKeys.add(credit.name.toLowerCase());
    if (credit.discogs_id === null) continue;
    const ref = labelRef(credit.discogs_id);
    if (ref?.slug) labelKeys.add(ref.slug);
    if (ref) labelKeys.add(ref.name.toLowerCase());
  }
  const artistNames = master.artists.map((credit) => credit.name);
  return searchEntry(
    {
      type: 'master',
      id: master.master_id,
      slug: null,
      name: master.title,
      year: master.year,
      artists: artistNames,
      genres: master.genres,
      styles: master.styles,
    },
    master.title,
    // Genres and styles are searchable too: "house" should find House records.
    [...artistNames, ...master.genres, ...master.styles],
    releaseCount,
    {
      genre: master.genres,
      style: master.styles,
      format: formatNamesOf(main),
      country: main?.country ? [main.country] : [],
      label: main ? [...new Set(main.labels.map((credit) => credit.name))] : [],
      labelKeys,
      year: master.year,
    },
  );
}

export function round6(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000 + 0;
}

/**
 * The score of an entry for query tokens, or null when it is not a hit. Every query token
 * must be a prefix of some entry token. Base: 3 for an exact full-name match, 2 when every
 * query token equals an entry token, 1 otherwise; plus popularity; 6 dp. Without tokens every
 * entry is a hit scoring its popularity.
 */
export function scoreOf(entry: SearchEntry, queryTokens: readonly string[], queryKey: string): number | null {
  if (queryTokens.length === 0) return round6(entry.popularity);
  let allExact = true;
  for (const token of queryTokens) {
    if (entry.tokenSet.has(token)) continue;
    allExact = false;
    if (!entry.tokens.some((candidate) => candidate.startsWith(token))) return null;
  }
  const base = entry.nameKey === queryKey ? 3 : allExact ? 2 : 1;
  return round6(base + entry.popularity);
}

/** score desc, then type (master, artist, label, festival), then id asc. */
export function comparePositions(a: SearchPosition, b: SearchPosition): number {
  return b.score - a.score || TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.id - b.id;
}

function anyOf(values: readonly string[], wanted: readonly string[] | undefined): boolean {
  if (!wanted || wanted.length === 0) return true;
  const lower = new Set(values.map((value) => value.toLowerCase()));
  return wanted.some((value) => lower.has(value.toLowerCase()));
}

export function hasAnyFilter(filters: FacetFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && (!Array.isArray(value) || value.length > 0));
}

/** Multi-valued facets: any of the values (case-insensitive exact); across facets: all. Years inclusive. */
export function matchesFilters(facets: MasterFacetValues, filters: FacetFilters): boolean {
  if (!anyOf(facets.genre, filters.genre) || !anyOf(facets.style, filters.style)) return false;
  if (!anyOf(facets.format, filters.format) || !anyOf(facets.country, filters.country)) return false;
  if (filters.label && filters.label.length > 0 && !filters.label.some((value) => facets.labelKeys.has(value.toLowerCase()))) return false;
  if (filters.year_from !== undefined && (facets.year === null || facets.year < filters.year_from)) return false;
  if (filters.year_to !== undefined && (facets.year === null || facets.year > filters.year_to)) return false;
  return true;
}

/** The values a master contributes to one facet; year_from and year_to both count the year. */
export function facetValuesOf(facets: MasterFacetValues, name: FacetName): Array<string | number> {
  switch (name) {
    case 'year_from':
    case 'year_to':
      return facets.year === null ? [] : [facets.year];
    case 'label':
      return [...new Set(facets.label)];
    default:
      return [...new Set(facets[name])];
  }
}
