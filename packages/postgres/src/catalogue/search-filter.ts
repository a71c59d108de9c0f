/**
 * The WHERE conditions and the score shared by search, facets and resolve, mirroring core's
 * catalogue/search.ts: a query token prefixes a document token (prefix tsquery over the GIN-
 * indexed tsv; every token, or in the "some" fallback any),
 * multi-valued facets match any value case-insensitively (lowercase keys stored beside the
 * values), facets AND together, years inclusive, and facet filters admit masters only.
 */
import type { FacetFilters } from '@catalogue/core';
import { type MatchMode, searchTextOf } from '@catalogue/core/catalogue';
import type { Fragment, Sql } from 'postgres';

export interface QueryText {
  tokens: string[];
  /** Query tokens joined by one space: compared with a document's name_key. */
  key: string;
  /** `'tok1':* & 'tok2':*`; tokens are [a-z0-9]+ (core's tokensOf), so quoting is safe. */
  tsquery: string;
  /** `'tok1':* | 'tok2':*`: the "some" fallback. */
  anyTsquery: string;
}

export function queryTextOf(q: string | null): QueryText {
  const { tokens, key } = searchTextOf(q);
  const prefixes = tokens.map((token) => `'${token}':*`);
  return { tokens, key, tsquery: prefixes.join(' & '), anyTsquery: prefixes.join(' | ') };
}

export function hasAnyFilter(filters: FacetFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && (!Array.isArray(value) || value.length > 0));
}

const lower = (values: readonly string[]) => values.map((value) => value.toLowerCase());

/** Conditions as one fragment starting with `TRUE`, so callers can always append it after WHERE. */
export function matchConditions(sql: Sql, text: QueryText, filters: FacetFilters, mode: MatchMode = 'all'): Fragment {
  const parts: Fragment[] = [];
  if (text.tokens.length > 0) parts.push(sql`AND tsv @@ ${mode === 'all' ? text.tsquery : text.anyTsquery}::tsquery`);
  if (hasAnyFilter(filters)) {
    parts.push(sql`AND kind = 0`);
    if (filters.genre?.length) parts.push(sql`AND genre_keys && ${lower(filters.genre)}::text[]`);
    if (filters.style?.length) parts.push(sql`AND style_keys && ${lower(filters.style)}::text[]`);
    if (filters.format?.length) parts.push(sql`AND format_keys && ${lower(filters.format)}::text[]`);
    if (filters.country?.length) parts.push(sql`AND country_key = ANY(${lower(filters.country)}::text[])`);
    if (filters.label?.length) parts.push(sql`AND label_keys && ${lower(filters.label)}::text[]`);
    if (filters.year_from !== undefined) parts.push(sql`AND year >= ${filters.year_from}`);
    if (filters.year_to !== undefined) parts.push(sql`AND year <= ${filters.year_to}`);
  }
  return parts.reduce((all, part) => sql`${all} ${part}`, sql`TRUE`);
}

const sum = (sql: Sql, parts: Fragment[]) => parts.reduce((all, part) => sql`${all} + ${part}`);

/**
 * The score of a document for the query, as core's scoreOf: integer points + score0 (the
 * stored round6 popularity), so both stores compute the same double. Per matched row it tests
 * the row's own tsv (weight A: title and artists) and phrase_text; the GIN index still finds
 * the rows. In the "all" mode every token matched, so `matched` is the token count.
 */
export function scoreExpression(sql: Sql, text: QueryText, mode: MatchMode = 'all'): Fragment {
  if (text.tokens.length === 0) return sql`score0`;
  const test = (query: (token: string) => string) =>
    sum(
      sql,
      text.tokens.map((token) => sql`(tsv @@ ${query(token)}::tsquery)::int`),
    );
  const matched = mode === 'all' ? sql`${text.tokens.length}::int` : test((token) => `'${token}':*`);
  const primary = test((token) => `'${token}':*A`);
  const exact = test((token) => `'${token}'`);
  const phrase =
    text.tokens.length >= 2
      ? sql`CASE WHEN name_key = ${text.key} THEN 2 WHEN phrase_text LIKE ${`% ${text.key}%`} THEN 1 ELSE 0 END`
      : sql`CASE WHEN name_key = ${text.key} THEN 2 ELSE 0 END`;
  return sql`((((${matched}) * 128 + (${primary})) * 4 + ${phrase}) * 128 + (${exact}))::float8 + score0`;
}
