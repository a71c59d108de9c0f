/**
 * Rebuilds search_documents with core's `searchEntry` (tokens by field, name key, phrase text,
 * popularity), the function the memory catalogue indexes with, so matching and scores agree
 * exactly (migration 0010_search_fields: primary tokens at weight A, secondary at D).
 */
import type { FestivalRow } from '@catalogue/core';
import { mainGenreOf } from '@catalogue/core/catalogue';
import type { Sql, TransactionSql } from 'postgres';
import { type Db, within } from './db.js';
import { artistDocument, festivalDocument, labelDocument, type MasterSource, masterDocument, type SearchDocument } from './search-document-rows.js';
import { fillStaging, type StagingMode } from './staging.js';

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
 * PGlite's path (no COPY): the table emptied and refilled in one transaction. PostgreSQL builds
 * it in finish()'s one pass instead (derived-copy.ts).
 */
export async function rebuildSearchDocuments(sql: Db, mode: StagingMode, pageSize: number): Promise<void> {
  await within(sql, async (tx) => {
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
      emit(rows.map((row) => artistDocument(row.page_id, row.name, row.slug, row.master_count, mainGenreOf((row.genres ?? []).map((genres) => ({ genres })))))),
  );

  await forEachPage(
    (after) => reader<Array<{ page_id: number; name: string; slug: string | null; master_count: number }>>`
        SELECT discogs_id AS page_id, name, slug, master_count FROM labels
        WHERE discogs_id > ${after} ORDER BY discogs_id LIMIT ${pageSize}`,
    (rows) => emit(rows.map((row) => labelDocument(row.page_id, row.name, row.slug, row.master_count))),
  );

  await forEachPage(
    (after) => reader<Array<{ page_id: number; slug: string | null; doc: FestivalRow }>>`
        SELECT festival_id AS page_id, slug, doc FROM festivals
        WHERE festival_id > ${after} ORDER BY festival_id LIMIT ${pageSize}`,
    (rows) => emit(rows.map((row) => festivalDocument(row.page_id, row.slug, row.doc))),
  );
}
