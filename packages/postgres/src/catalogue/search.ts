/** search and facets over search_documents. */
import type { FacetName, FacetsQuery, FacetsResult, FacetValue, SearchHitData, SearchQuery } from '@catalogue/core';
import { compareText } from '@catalogue/core/catalogue';
import type { Sql } from 'postgres';
import type { Reader } from './reader.js';
import { matchConditions, queryTextOf, scoreExpression } from './search-filter.js';

const KIND_OF_TYPE = { master: 0, artist: 1, label: 2, festival: 3 } as const;
const TYPE_OF_KIND = ['master', 'artist', 'label', 'festival'] as const;

interface HitRow extends Omit<SearchHitData, 'type'> {
  kind: number;
}

export async function searchDocuments(sql: Sql, read: Reader, query: SearchQuery, signal?: AbortSignal): Promise<SearchHitData[]> {
  const text = queryTextOf(query.q);
  const kindCondition = query.type === 'all' ? sql`` : sql`AND kind = ${KIND_OF_TYPE[query.type]}`;
  const after = query.after;
  const afterCondition = after
    ? sql`WHERE score < ${after.score}::float8
            OR (score = ${after.score}::float8 AND (kind > ${KIND_OF_TYPE[after.type]} OR (kind = ${KIND_OF_TYPE[after.type]} AND id > ${after.id})))`
    : sql``;
  const rows = await read(signal, () => sql<HitRow[]>`
    SELECT * FROM (
      SELECT kind, id, slug, name, year, artists, genres, styles, ${scoreExpression(sql, text)} AS score
      FROM search_documents
      WHERE ${matchConditions(sql, text, query.filters)} ${kindCondition}
    ) AS hits
    ${afterCondition}
    ORDER BY score DESC, kind, id
    LIMIT ${query.limit}`);
  return rows.map((row) => ({
    type: TYPE_OF_KIND[row.kind] as SearchHitData['type'],
    id: row.id,
    slug: row.slug,
    name: row.name,
    year: row.year,
    artists: row.artists,
    genres: row.genres,
    styles: row.styles,
    score: row.score,
  }));
}

/** The column a facet counts, as an array expression (each master counts a value once). */
function facetValues(sql: Sql, name: FacetName) {
  switch (name) {
    case 'genre':
      return sql`genres`;
    case 'style':
      return sql`styles`;
    case 'format':
      return sql`formats`;
    case 'label':
      return sql`labels`;
    case 'country':
      return sql`CASE WHEN country IS NULL THEN '{}'::text[] ELSE ARRAY[country] END`;
    case 'year_from':
    case 'year_to':
      return sql`CASE WHEN year IS NULL THEN '{}'::text[] ELSE ARRAY[year::text] END`;
  }
}

function compareFacetValues(a: FacetValue, b: FacetValue): number {
  return b.count - a.count || (typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : compareText(String(a.value), String(b.value)));
}

export async function facetCounts(sql: Sql, read: Reader, query: FacetsQuery, signal?: AbortSignal): Promise<FacetsResult> {
  const text = queryTextOf(query.q);
  const where = sql`kind = 0 AND ${matchConditions(sql, text, query.filters)}`;
  const totalQuery = read(signal, () => sql<Array<{ total: number }>>`SELECT count(*)::int AS total FROM search_documents WHERE ${where}`);
  const facetQueries = query.facets.map(async (name) => {
    // Every value tied with the limit-th count is fetched, so core's tie order (compareText)
    // decides the cut exactly as the memory catalogue does.
    const rows = await read(signal, () => sql<Array<{ value: string; count: number }>>`
      WITH counts AS (
        SELECT value, count(DISTINCT id)::int AS count
        FROM search_documents, unnest(${facetValues(sql, name)}) AS value
        WHERE ${where}
        GROUP BY value
      )
      SELECT value, count FROM counts
      WHERE count >= coalesce((SELECT count FROM counts ORDER BY count DESC OFFSET ${Math.max(query.limit - 1, 0)} LIMIT 1), 0)`);
    const numeric = name === 'year_from' || name === 'year_to';
    const values = rows.map((row): FacetValue => ({ value: numeric ? Number(row.value) : row.value, count: row.count }));
    return [name, values.sort(compareFacetValues).slice(0, query.limit)] as const;
  });
  const [total, ...facets] = await Promise.all([totalQuery, ...facetQueries]);
  return { total: total[0]?.total ?? 0, facets: Object.fromEntries(facets) };
}
