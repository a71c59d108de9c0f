/**
 * The reads of finish()'s derived tables on PostgreSQL (issue 13), one query per page of ids,
 * each answering the page as one JSON text that the main thread hands on unparsed to a worker
 * thread (derived-pages.ts). Pages are id ranges cut in advance, so several are read at once.
 * A master page reads each master's data once, set-based, for both its search document and
 * its stored record: only the four fields of its main release those use, its release count,
 * and the artists and labels the page credits.
 */
import type { Sql, TransactionSql } from 'postgres';

type Db = Sql | TransactionSql;

import type { PageKind } from './derived-pages.js';

/** (after, upTo]: the ids of one page. */
export type IdRange = [after: number, upTo: number];

const TABLES: Record<PageKind, { table: string; id: string }> = {
  masters: { table: 'masters', id: 'master_id' },
  artists: { table: 'artists', id: 'discogs_id' },
  labels: { table: 'labels', id: 'discogs_id' },
};

const MIN_ID = -2_147_483_648;
const MAX_ID = 2_147_483_647;

/** The table's ids cut into ranges of at most `pageSize` rows (every pageSize-th id ends one). */
export async function pageRanges(sql: Db, kind: PageKind, pageSize: number): Promise<IdRange[]> {
  const { table, id } = TABLES[kind];
  const ends = await sql.unsafe<Array<{ id: number }>>(
    `SELECT id FROM (SELECT ${id} AS id, row_number() OVER (ORDER BY ${id}) AS n FROM ${table}) s WHERE n % $1 = 0 ORDER BY id`,
    [pageSize],
  );
  const ranges: IdRange[] = [];
  let after = MIN_ID;
  for (const { id: end } of ends) {
    ranges.push([after, end]);
    after = end;
  }
  ranges.push([after, MAX_ID]);
  return ranges;
}

/** The page's JSON text: a MasterPage, or an array of ArtistPageRow / LabelPageRow (null when empty). */
export async function readPage(sql: Db, kind: PageKind, [after, upTo]: IdRange): Promise<string> {
  const [row] = await (kind === 'masters' ? masterPage(sql, after, upTo) : kind === 'artists' ? artistPage(sql, after, upTo) : labelPage(sql, after, upTo));
  return row?.page ?? 'null';
}

type PageRows = Promise<Array<{ page: string | null }>>;

function masterPage(sql: Db, after: number, upTo: number): PageRows {
  return sql`
    WITH page AS (
      SELECT master_id, main_release_id, doc FROM masters WHERE master_id > ${after} AND master_id <= ${upTo}
    ),
    mains AS (
      SELECT p.master_id,
             jsonb_build_object('labels', r.doc->'labels', 'formats', r.doc->'formats', 'country', r.doc->'country', 'released', r.doc->'released') AS main
      FROM page p JOIN releases r ON r.release_id = p.main_release_id
    ),
    counts AS (
      SELECT master_id, count(*)::int AS n FROM releases WHERE master_id > ${after} AND master_id <= ${upTo} GROUP BY master_id
    )
    SELECT json_build_object(
      'masters', (SELECT json_agg(json_build_array(p.doc, m.main, coalesce(c.n, 0)) ORDER BY p.master_id)
                  FROM page p LEFT JOIN mains m ON m.master_id = p.master_id LEFT JOIN counts c ON c.master_id = p.master_id),
      'artists', (SELECT json_agg(json_build_array(a.discogs_id, a.slug, a.name)) FROM artists a
                  WHERE a.discogs_id IN (SELECT (credit->>'discogs_id')::int FROM page, jsonb_array_elements(page.doc->'artists') AS credit
                                         WHERE credit->>'discogs_id' IS NOT NULL)),
      'labels', (SELECT json_agg(json_build_array(l.discogs_id, l.slug, l.name)) FROM labels l
                 WHERE l.discogs_id IN (SELECT (credit->>'discogs_id')::int FROM mains, jsonb_array_elements(mains.main->'labels') AS credit
                                        WHERE credit->>'discogs_id' IS NOT NULL))
    )::text AS page`;
}

function artistPage(sql: Db, after: number, upTo: number): PageRows {
  return sql`
    SELECT json_agg(json_build_array(a.discogs_id, a.name, a.slug, a.master_count, g.genres) ORDER BY a.discogs_id)::text AS page
    FROM artists a
    LEFT JOIN (
      SELECT artist_id, json_agg(json_build_array(genre, n)) AS genres
      FROM (
        SELECT ma.artist_id, g.genre, count(*)::int AS n
        FROM master_artists ma JOIN masters m ON m.master_id = ma.master_id, LATERAL (SELECT DISTINCT unnest(m.genres)) AS g(genre)
        WHERE ma.artist_id > ${after} AND ma.artist_id <= ${upTo}
        GROUP BY ma.artist_id, g.genre
      ) counted
      GROUP BY artist_id
    ) g ON g.artist_id = a.discogs_id
    WHERE a.discogs_id > ${after} AND a.discogs_id <= ${upTo}`;
}

function labelPage(sql: Db, after: number, upTo: number): PageRows {
  return sql`
    SELECT json_agg(json_build_array(discogs_id, name, slug, master_count) ORDER BY discogs_id)::text AS page
    FROM labels WHERE discogs_id > ${after} AND discogs_id <= ${upTo}`;
}
