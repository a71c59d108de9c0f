/**
 * Search, the same for every store: one entry per master and agent, the score of an entry for
 * a query, the hit order and the facet filters. The memory catalogue searches these entries
 * directly; PostgreSQL stores them as search documents (packages/postgres/src/writer/
 * search-documents.ts) and computes the same score in SQL (packages/postgres/src/catalogue/
 * search-filter.ts). The relevance suite (test/catalogue/relevance.test.ts) holds the ranking
 * to real queries on the Discogs samples.
 *
 * ## Scoring (field-boosted, after Discogs' and MusicBrainz's search)
 *
 * Text is folded (text.ts: transliterated to ASCII, lowercase) and cut into tokens. An entry
 * has two fields: **primary** — a master's title and its artists' names, an agent's name —
 * and **secondary** — a master's genres and styles, a festival's genres. A query token
 * *matches* a field when it is a prefix of one of its tokens (typing-as-you-go: `moments in ti`).
 *
 * Which entries are hits: those every query token matches (in either field). Only when no entry
 * of the type and filters asked has every token do entries with **some** tokens become hits
 * (`persuader stockholm` still finds The Persuader) — so a query with complete hits never pays
 * for, nor shows, partial ones.
 *
 * The score is `points + popularity`; `points` is an integer that orders, most important first:
 *
 * 1. `matched`: query tokens found at all (only differs in the "some" fallback);
 * 2. `primary`: query tokens found in the title or an artist name — words in title/artist
 *    outrank words found only in genre/style, and all words there beat some;
 * 3. `phrase`: 2 when the whole name equals the query; 1 when a query of two or more words
 *    appears as a phrase (its last word a prefix) within the title or within one artist name;
 *    exact phrase beats scattered words;
 * 4. `whole`: 1 when every query token is a whole word of the entry (`house` over `houses`);
 *
 * as `((matched·128 + primary)·4 + phrase)·2 + whole` (a query has at most 100 tokens).
 *
 * ## Typos (issue 29; which words, which corrections: typos.ts)
 *
 * Only when no entry of the type and filters asked has every query token as typed, the words
 * of 5+ characters that have corrections (vocabulary words 1 edit away, 2 from 9 characters)
 * are searched as "the word or one of its corrections", each variant matching as a prefix like
 * the word typed. A query with complete hits as typed never pays for corrections (nor shows
 * corrected hits below them); without corrections it falls back to "some" as above. The hits
 * are those every token matches through some variant (else, the fallback, some token), and
 * `points` gains a level, most important first:
 *
 * 1. `matched`: query tokens found at all, through any variant;
 * 2. `exact`: query tokens found as typed — a hit whose words match exactly outranks one that
 *    needed a correction, and fewer corrections beat more;
 *
 * and each token is then read as one word per entry, its *chosen* variant: the first of its
 * variants (as typed, then its corrections in order) the entry holds, so that
 *
 * 3. `primary`: tokens whose chosen variant is found in the title or an artist name;
 * 4. `phrase`: as above, of the query each token of which is replaced by its chosen variant;
 * 5. `whole`: 1 when the chosen variant of every token is a whole word of the entry;
 *
 * as `(((matched·128 + exact)·128 + primary)·4 + phrase)·2 + whole`. Then popularity, type, id
 * as above. Such scores are only compared with each other: a query is corrected on every page
 * or on none (the choice ignores the cursor). Reading every level from the chosen variant (until
 * 2026-11-27 `primary` and `whole` took any variant) makes a one-word corrected query's top
 * level — chosen variant whole and in the title or an artist — exactly the entries with a
 * search_terms row under their chosen variant, scoring that row's score + 130048, so
 * PostgreSQL pages it from those rows in their order (packages/postgres/src/catalogue/
 * search.ts, topByCorrections; docs/decisions.md, "Typo tolerance") instead of scoring every
 * document a common correction holds.
 * `popularity` = round6(log10(1 + size) / 10) < 1 (size: releases of a master, masters of an
 * artist or label, lineup of a festival) only breaks ties. Equal scores order by type (master,
 * artist, label, festival), then id. Without a query every entry is a hit scoring its
 * popularity. Integer points plus the stored popularity are the same double in JS and in
 * PostgreSQL, so both stores order and page identically.
 */

import { clusterIdOf, type MasterRow, type ReleaseRow } from '../dataset.js';
import type { FacetFilters, FacetName, SearchPosition } from '../ports/index.js';
import type { SearchHitData } from '../schemas/records.js';
import { formatNamesOf } from './master-record.js';
import { tokensOf } from './text.js';
import type { Corrections } from './typos.js';

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
  /** Tokens of the primary field: the name and, for a master, its artists' names. */
  primary: string[];
  /** Tokens of the secondary field only (genres, styles), not already primary. */
  secondary: string[];
  /** ` <name key> | <artist key> | … `: where a phrase is looked for (never across a `|`). */
  phraseText: string;
  /** round6(log10(1 + size) / 10), where size is releases (master), masters (artist, label) or lineup artists (festival). */
  popularity: number;
  facets: MasterFacetValues | null;
}

export function round6(value: number): number {
  return Math.round(value * 1_000_000) / 1_000_000 + 0;
}

/** Most query tokens scored (q holds at most 200 characters, so at most 100 tokens). */
export const MAX_QUERY_TOKENS = 100;

export function searchEntry(
  hit: Omit<SearchHitData, 'score'>,
  name: string,
  primaryText: string[],
  secondaryText: string[],
  size: number,
  facets: MasterFacetValues | null,
): SearchEntry {
  // Each text folded once, its tokens giving both the token sets and its name key; plain loops,
  // not flat/flatMap and spreads: finish() makes an entry per document (issue 13).
  const inPrimary = new Set<string>();
  const keyOf = (text: string) => {
    const tokens = tokensOf(text);
    for (const token of tokens) inPrimary.add(token);
    return tokens.join(' ');
  };
  const key = keyOf(name);
  let phraseText = ` ${key}`;
  for (const text of primaryText) phraseText += ` | ${keyOf(text)}`;
  phraseText += ' ';
  // First occurrences in order, those already primary left out.
  const inSecondary = new Set<string>();
  for (const text of secondaryText) for (const token of tokensOf(text)) if (!inPrimary.has(token)) inSecondary.add(token);
  return { hit, nameKey: key, primary: [...inPrimary], secondary: [...inSecondary], phraseText, popularity: round6(Math.log10(1 + size) / 10), facets };
}

/**
 * The search entry of a master, with its facet values: the one definition the memory index
 * and the PostgreSQL search documents are both built from. `labelRef` gives the slug and
 * canonical name of a credited label id, `artistSlug` the slug of a credited artist, when known.
 */
export function masterSearchEntry(
  master: MasterRow,
  main: ReleaseRow | null,
  releaseCount: number,
  labelRef: (labelId: number) => { slug: string | null; name: string } | undefined,
  artistSlug: (artistId: number) => string | null = () => null,
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
  const credits: NonNullable<SearchHitData['credits']> = [];
  for (const credit of master.artists) {
    const clusterId = clusterIdOf('artist', credit.discogs_id);
    if (!credits.some((known) => known.cluster_id === clusterId))
      credits.push({ cluster_id: clusterId, slug: artistSlug(credit.discogs_id), name: credit.name });
  }
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
      credits,
    },
    master.title,
    artistNames,
    // Genres and styles are searchable too ("house" finds House records), below title and artists.
    [...master.genres, ...master.styles],
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

/** A folded query: its tokens (at most MAX_QUERY_TOKENS) and key. */
export interface SearchText {
  tokens: string[];
  key: string;
  /** Per token, its corrections ([] for none): present only when the query is searched with them ("Typos"). */
  corrections?: ReadonlyArray<readonly string[]>;
}

/** The query searched with its corrections (per token position; the others none). */
export function withCorrections(text: SearchText, corrections: Corrections): SearchText {
  return { ...text, corrections: text.tokens.map((_, position) => corrections.get(position) ?? []) };
}

export function searchTextOf(q: string | null): SearchText {
  const tokens = q ? tokensOf(q).slice(0, MAX_QUERY_TOKENS) : [];
  return { tokens, key: tokens.join(' ') };
}

/** Which entries are hits: every token matches (`all`), or at least one (`some`, the fallback). */
export type MatchMode = 'all' | 'some';

const prefixes = (tokens: readonly string[], token: string) => tokens.some((candidate) => candidate.startsWith(token));

/** The points of the scoring above (without popularity), or null when the entry is not a hit in `mode`. */
export function pointsOf(entry: SearchEntry, text: SearchText, mode: MatchMode): number | null {
  if (text.corrections) return typoPointsOf(entry, text, text.corrections, mode);
  let matched = 0;
  let primary = 0;
  let whole = 1;
  for (const token of text.tokens) {
    const inPrimary = prefixes(entry.primary, token);
    if (inPrimary) primary++;
    if (inPrimary || prefixes(entry.secondary, token)) matched++;
    else if (mode === 'all') return null;
    if (!entry.primary.includes(token) && !entry.secondary.includes(token)) whole = 0;
  }
  if (matched === 0) return null;
  const phrase = entry.nameKey === text.key ? 2 : text.tokens.length >= 2 && entry.phraseText.includes(` ${text.key}`) ? 1 : 0;
  return ((matched * 128 + primary) * 4 + phrase) * 2 + whole;
}

/** pointsOf for a query searched with its corrections ("Typos"). */
function typoPointsOf(entry: SearchEntry, text: SearchText, corrections: ReadonlyArray<readonly string[]>, mode: MatchMode): number | null {
  let matched = 0;
  let exact = 0;
  let primary = 0;
  let whole = 1;
  const chosen: string[] = [];
  for (let i = 0; i < text.tokens.length; i++) {
    const token = text.tokens[i] as string;
    const variants = [token, ...(corrections[i] ?? [])];
    const found = variants.find((variant) => prefixes(entry.primary, variant) || prefixes(entry.secondary, variant));
    chosen.push(found ?? token);
    if (found === undefined) {
      if (mode === 'all') return null;
      whole = 0;
      continue;
    }
    matched++;
    if (found === token) exact++;
    // The chosen variant alone decides the field and the whole word (see "Typos" above).
    if (prefixes(entry.primary, found)) primary++;
    if (!entry.primary.includes(found) && !entry.secondary.includes(found)) whole = 0;
  }
  if (matched === 0) return null;
  const key = chosen.join(' ');
  const phrase = entry.nameKey === key ? 2 : chosen.length >= 2 && entry.phraseText.includes(` ${key}`) ? 1 : 0;
  return (((matched * 128 + exact) * 128 + primary) * 4 + phrase) * 2 + whole;
}

/** The score of an entry, or null when it is not a hit: points + popularity (popularity alone without a query). */
export function scoreOf(entry: SearchEntry, text: SearchText, mode: MatchMode = 'all'): number | null {
  if (text.tokens.length === 0) return entry.popularity;
  const points = pointsOf(entry, text, mode);
  return points === null ? null : points + entry.popularity;
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
