/**
 * Rebuilds search_documents with core's `searchEntry` (tokens by field, name key, phrase text,
 * popularity), the function the memory catalogue indexes with, so matching and scores agree
 * exactly (migration 0010_search_fields: primary tokens at weight A, secondary at D).
 */
import { clusterIdOf, type FestivalRow, type MasterRow, type ReleaseRow } from '@catalogue/core';
import { type MasterFacetValues, mainGenreOf, masterSearchEntry, type SearchEntry, searchEntry } from '@catalogue/core/catalogue';
import type { Sql, TransactionSql } from 'postgres';
import { copyInt, copyJson, copyText, copyTextArray } from '../bulk/copy-text.js';
import { rebuildByCopy } from '../bulk/table-swap.js';
import { fillStaging, type StagingMode } from './staging.js';

const KIND = { master: 0, artist: 1, label: 2, festival: 3 } as const;

interface SearchDocument {
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

function documentOf(entry: SearchEntry): SearchDocument {
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
    ...(hit.credits ? { credits: hit.credits } : {}),
    score0: entry.popularity,
  };
}

interface MasterSource {
  master: MasterRow;
  main_release: ReleaseRow | null;
  release_count: number;
  label_refs: Array<{ id: number; slug: string | null; name: string }>;
  artist_slugs: Record<string, string | null> | null;
}

/** The facet values and label keys of core's own master entry (masterSearchEntry), as columns. */
function masterDocument(source: MasterSource): SearchDocument {
  const known = new Map(source.label_refs.map((ref) => [ref.id, ref]));
  const entry = masterSearchEntry(
    source.master,
    source.main_release,
    source.release_count,
    (id) => known.get(id),
    (id) => source.artist_slugs?.[String(id)] ?? null,
  );
  const facets = entry.facets as MasterFacetValues;
  const country = facets.country[0] ?? null;
  return {
    ...documentOf(entry),
    formats: facets.format,
    country,
    labels: facets.label,
    genre_keys: lowerSet(facets.genre),
    style_keys: lowerSet(facets.style),
    format_keys: lowerSet(facets.format),
    country_key: country?.toLowerCase() ?? null,
    label_keys: [...facets.labelKeys],
  };
}

const DOCUMENT_COLUMNS = [
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
function documentLine(d: SearchDocument): string {
  const float = (n: number) => String(n);
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
    float(d.score0),
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

async function insertDocuments(tx: TransactionSql, mode: StagingMode, documents: SearchDocument[]): Promise<void> {
  if (documents.length === 0) return;
  await fillStaging(tx, mode, documents);
  await tx`
    INSERT INTO search_documents (kind, id, slug, name, year, artists, genres, styles, name_key, tokens, tsv, phrase_text, credits,
                                  score0, formats, country, labels,
                                  genre_keys, style_keys, format_keys, country_key, label_keys)
    SELECT d.kind, d.id, d.slug, d.name, d.year, d.artists, d.genres, d.styles, d.name_key, d.tokens, (doc->>'tsv_text')::tsvector,
           d.phrase_text, d.credits, d.score0, coalesce(d.formats, '{}'), d.country, coalesce(d.labels, '{}'),
           coalesce(d.genre_keys, '{}'), coalesce(d.style_keys, '{}'), coalesce(d.format_keys, '{}'), d.country_key, coalesce(d.label_keys, '{}')
    FROM staging_rows, jsonb_populate_record(null::search_documents, doc) AS d`;
}

/** Keyset pages over one id column, so no cursor holds the transaction's only connection. */
export async function forEachPage<T extends { page_id: number }>(
  fetch: (after: number) => Promise<readonly T[]>,
  handle: (rows: readonly T[]) => Promise<void>,
): Promise<void> {
  // The next page is read while this one is handled, so the database and this process work at
  // once (issue 13: the loader waited on each page's query most of the step).
  let next = fetch(-2_147_483_648);
  for (;;) {
    const rows = await next;
    if (rows.length === 0) return;
    next = fetch((rows[rows.length - 1] as T).page_id);
    // Observed on the next turn; this only stops an "unhandled rejection" if handle() throws.
    next.catch(() => undefined);
    await handle(rows);
  }
}

/**
 * On PostgreSQL the documents are COPYed into a fresh table whose indexes are built after the
 * load, then swapped in (bulk/table-swap.ts): inserting into the live table maintained six GIN
 * indexes row by row and was most of finish()'s time (issue 13). PGlite has no COPY: there the
 * table is emptied and refilled in one transaction.
 */
export async function rebuildSearchDocuments(sql: Sql, mode: StagingMode, pageSize: number): Promise<void> {
  if (mode === 'copy') {
    await rebuildByCopy(sql, 'search_documents', DOCUMENT_COLUMNS, (write) =>
      produceDocuments(sql, pageSize, (documents) => write(documents.map(documentLine).join(''))),
    );
    return;
  }
  await sql.begin(async (tx) => {
    await tx`DELETE FROM search_documents`;
    await produceDocuments(tx, pageSize, (documents) => insertDocuments(tx, mode, documents));
  });
}

/** Every search document, a page at a time, handed to `emit`. */
async function produceDocuments(reader: Sql | TransactionSql, pageSize: number, emit: (documents: SearchDocument[]) => Promise<void>): Promise<void> {
  await forEachPage(
    (after) => reader<Array<MasterSource & { page_id: number }>>`
        SELECT m.master_id AS page_id, m.doc AS master, r.doc AS main_release,
               (SELECT count(*)::int FROM releases x WHERE x.master_id = m.master_id) AS release_count,
               (SELECT coalesce(json_agg(json_build_object('id', l.discogs_id, 'slug', l.slug, 'name', l.name)), '[]'::json)
                  FROM master_labels ml JOIN labels l ON l.discogs_id = ml.label_id WHERE ml.master_id = m.master_id) AS label_refs,
               (SELECT json_object_agg(a.discogs_id, a.slug)
                  FROM master_artists ma JOIN artists a ON a.discogs_id = ma.artist_id WHERE ma.master_id = m.master_id) AS artist_slugs
        FROM masters m LEFT JOIN releases r ON r.release_id = m.main_release_id
        WHERE m.master_id > ${after} ORDER BY m.master_id LIMIT ${pageSize}`,
    (rows) => emit(rows.map(masterDocument)),
  );

  await forEachPage(
    (after) => reader<Array<{ page_id: number; name: string; slug: string | null; master_count: number; genres: string[][] | null }>>`
        SELECT a.discogs_id AS page_id, a.name, a.slug, a.master_count,
               (SELECT json_agg(m.genres) FROM master_artists ma JOIN masters m ON m.master_id = ma.master_id WHERE ma.artist_id = a.discogs_id) AS genres
        FROM artists a WHERE a.discogs_id > ${after} ORDER BY a.discogs_id LIMIT ${pageSize}`,
    (rows) =>
      emit(
        rows.map((row) => {
          const genre = mainGenreOf((row.genres ?? []).map((genres) => ({ genres })));
          const hit = {
            type: 'artist' as const,
            id: clusterIdOf('artist', row.page_id),
            slug: row.slug,
            name: row.name,
            year: null,
            artists: [],
            genres: genre ? [genre] : [],
            styles: [],
          };
          return documentOf(searchEntry(hit, row.name, [], [], row.master_count, null));
        }),
      ),
  );

  await forEachPage(
    (after) => reader<Array<{ page_id: number; name: string; slug: string | null; master_count: number }>>`
        SELECT discogs_id AS page_id, name, slug, master_count FROM labels
        WHERE discogs_id > ${after} ORDER BY discogs_id LIMIT ${pageSize}`,
    (rows) =>
      emit(
        rows.map((row) => {
          const hit = {
            type: 'label' as const,
            id: clusterIdOf('label', row.page_id),
            slug: row.slug,
            name: row.name,
            year: null,
            artists: [],
            genres: [],
            styles: [],
          };
          return documentOf(searchEntry(hit, row.name, [], [], row.master_count, null));
        }),
      ),
  );

  await forEachPage(
    (after) => reader<Array<{ page_id: number; slug: string | null; doc: FestivalRow }>>`
        SELECT festival_id AS page_id, slug, doc FROM festivals
        WHERE festival_id > ${after} ORDER BY festival_id LIMIT ${pageSize}`,
    (rows) =>
      emit(
        rows.map((row) => {
          const festival = row.doc;
          const lineup = new Set(festival.editions.flatMap((edition) => edition.lineup.map((slot) => slot.artist_discogs_id)));
          const hit = {
            type: 'festival' as const,
            id: clusterIdOf('festival', row.page_id),
            slug: row.slug,
            name: festival.name,
            year: null,
            artists: [],
            genres: festival.genres,
            styles: [],
          };
          return documentOf(searchEntry(hit, festival.name, [], festival.genres, lineup.size, null));
        }),
      ),
  );
}
