/**
 * Search documents as rows and as COPY lines, from fetched rows: core's `searchEntry` and
 * `masterSearchEntry` (tokens by field, name key, phrase text, popularity), the functions the
 * memory catalogue indexes with, so matching and scores agree exactly (migration
 * 0010_search_fields: primary tokens at weight A, secondary at D). Pure: used on the main
 * thread (search-documents.ts) and in the derived-data worker threads (derived-pages.ts).
 */
import { clusterIdOf, type FestivalRow, type MasterRow, type ReleaseRow } from '@catalogue/core';
import { type MasterFacetValues, masterSearchEntry, type SearchEntry, searchEntry } from '@catalogue/core/catalogue';
import { copyInt, copyJson, copyText, copyTextArray } from '../bulk/copy-text.js';

const KIND = { master: 0, artist: 1, label: 2, festival: 3 } as const;

export interface SearchDocument {
  kind: number;
  id: number;
  slug: string | null;
  name: string;
  year: number | null;
  artists: string[];
  genres: string[];
  styles: string[];
  name_key: string;
  tokens: string[];
  /** tsvector text: each primary token at weight A, each secondary one at weight D. */
  tsv_text: string;
  phrase_text: string;
  credits?: unknown;
  score0: number;
  formats?: string[];
  country?: string | null;
  labels?: string[];
  genre_keys?: string[];
  style_keys?: string[];
  format_keys?: string[];
  country_key?: string | null;
  label_keys?: string[];
}

const lowerSet = (values: readonly string[]) => [...new Set(values.map((value) => value.toLowerCase()))];

/** Tokens are [a-z0-9]+ (core's tokensOf), so they need no quoting beyond the quotes. */
function weightedTsvector(entry: SearchEntry): string {
  const lexemes = [...entry.primary.map((token) => [token, 'A']), ...entry.secondary.map((token) => [token, 'D'])];
  return lexemes.map(([token, weight], i) => `'${token}':${Math.min(i + 1, 16_383)}${weight}`).join(' ');
}

/** The columns only a master's document has (its facet values), from masterDocumentOf. */
type MasterColumns = Pick<SearchDocument, 'formats' | 'country' | 'labels' | 'genre_keys' | 'style_keys' | 'format_keys' | 'country_key' | 'label_keys'>;

/**
 * One object literal with every column, in one order, whatever the kind: built with spreads
 * (`...documentOf(entry)`, a credits entry spread in only when present) the documents took
 * differing shapes, and building and reading them cost ~55 µs per master, most of finish()'s
 * JavaScript (issue 13). An absent value is undefined, which documentLine and the JSON staging
 * path both write as the column's NULL or default.
 */
function documentOf(entry: SearchEntry, master?: MasterColumns): SearchDocument {
  const { hit } = entry;
  return {
    kind: KIND[hit.type],
    id: hit.id,
    slug: hit.slug,
    name: hit.name,
    year: hit.year,
    artists: hit.artists,
    genres: hit.genres,
    styles: hit.styles,
    name_key: entry.nameKey,
    tokens: [...entry.primary, ...entry.secondary],
    tsv_text: weightedTsvector(entry),
    phrase_text: entry.phraseText,
    credits: hit.credits,
    score0: entry.popularity,
    formats: master?.formats,
    country: master?.country,
    labels: master?.labels,
    genre_keys: master?.genre_keys,
    style_keys: master?.style_keys,
    format_keys: master?.format_keys,
    country_key: master?.country_key,
    label_keys: master?.label_keys,
  };
}

export interface MasterSource {
  master: MasterRow;
  main_release: ReleaseRow | null;
  release_count: number;
  label_refs: Array<{ id: number; slug: string | null; name: string }>;
  artist_slugs: Record<string, string | null> | null;
}

/** The facet values and label keys of core's own master entry (masterSearchEntry), as columns. */
export function masterDocument(source: MasterSource): SearchDocument {
  const known = new Map(source.label_refs.map((ref) => [ref.id, ref]));
  return masterDocumentOf(
    source.master,
    source.main_release,
    source.release_count,
    (id) => known.get(id),
    (id) => source.artist_slugs?.[String(id)] ?? null,
  );
}

/** A master's document from lookups (a page's worth of labels and artists, derived-pages.ts). */
export function masterDocumentOf(
  master: MasterRow,
  mainRelease: ReleaseRow | null,
  releaseCount: number,
  labelRef: (id: number) => { slug: string | null; name: string } | undefined,
  artistSlug: (id: number) => string | null,
): SearchDocument {
  const entry = masterSearchEntry(master, mainRelease, releaseCount, labelRef, artistSlug);
  const facets = entry.facets as MasterFacetValues;
  const country = facets.country[0] ?? null;
  return documentOf(entry, {
    formats: facets.format,
    country,
    labels: facets.label,
    genre_keys: lowerSet(facets.genre),
    style_keys: lowerSet(facets.style),
    format_keys: lowerSet(facets.format),
    country_key: country?.toLowerCase() ?? null,
    label_keys: [...facets.labelKeys],
  });
}

export const DOCUMENT_COLUMNS = [
  'kind',
  'id',
  'slug',
  'name',
  'year',
  'artists',
  'genres',
  'styles',
  'name_key',
  'tokens',
  'tsv',
  'phrase_text',
  'credits',
  'score0',
  'formats',
  'country',
  'labels',
  'genre_keys',
  'style_keys',
  'format_keys',
  'country_key',
  'label_keys',
] as const;

/** One COPY line of DOCUMENT_COLUMNS: the values insertDocuments writes through jsonb. */
export function documentLine(d: SearchDocument): string {
  return `${[
    d.kind,
    d.id,
    copyText(d.slug),
    copyText(d.name),
    copyInt(d.year),
    copyTextArray(d.artists),
    copyTextArray(d.genres),
    copyTextArray(d.styles),
    copyText(d.name_key),
    copyTextArray(d.tokens),
    copyText(d.tsv_text),
    copyText(d.phrase_text),
    d.credits === undefined ? '\\N' : copyJson(d.credits),
    String(d.score0),
    copyTextArray(d.formats ?? []),
    copyText(d.country ?? null),
    copyTextArray(d.labels ?? []),
    copyTextArray(d.genre_keys ?? []),
    copyTextArray(d.style_keys ?? []),
    copyTextArray(d.format_keys ?? []),
    copyText(d.country_key ?? null),
    copyTextArray(d.label_keys ?? []),
  ].join('\t')}\n`;
}

/** An artist's document: its master count and the main genre of its masters (core's mainGenreOf). */
export function artistDocument(id: number, name: string, slug: string | null, masterCount: number, genre: string | null): SearchDocument {
  const hit = { type: 'artist' as const, id: clusterIdOf('artist', id), slug, name, year: null, artists: [], genres: genre ? [genre] : [], styles: [] };
  return documentOf(searchEntry(hit, name, [], [], masterCount, null));
}

export function labelDocument(id: number, name: string, slug: string | null, masterCount: number): SearchDocument {
  const hit = { type: 'label' as const, id: clusterIdOf('label', id), slug, name, year: null, artists: [], genres: [], styles: [] };
  return documentOf(searchEntry(hit, name, [], [], masterCount, null));
}

/** A festival's document: its size is the distinct artists of all its lineups. */
export function festivalDocument(id: number, slug: string | null, festival: FestivalRow): SearchDocument {
  const lineup = new Set(festival.editions.flatMap((edition) => edition.lineup.map((slot) => slot.artist_discogs_id)));
  const hit = {
    type: 'festival' as const,
    id: clusterIdOf('festival', id),
    slug,
    name: festival.name,
    year: null,
    artists: [],
    genres: festival.genres,
    styles: [],
  };
  return documentOf(searchEntry(hit, festival.name, [], festival.genres, lineup.size, null));
}
