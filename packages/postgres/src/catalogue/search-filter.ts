/**
 * The WHERE conditions shared by search and facets, mirroring core's memory matching:
 * every query token prefixes a document token (prefix tsquery over the stored tokens),
 * multi-valued facets match any value case-insensitively (lowercase keys stored beside the
 * values), facets AND together, years inclusive, and facet filters admit masters only.
 */
import type { FacetFilters } from '@catalogue/core';
import { tokensOf } from '@catalogue/core/catalogue';
import type { Fragment, Sql } from 'postgres';

export interface QueryText {
  tokens: string[];
  /** Query tokens joined by one space: compared with a document's name_key. */
  key: string;
  /** `'tok1':* & 'tok2':*`; tokens hold only letters and digits, so quoting is safe. */
  tsquery: string;
}

export function queryTextOf(q: string | null): QueryText {
  const tokens = q ? tokensOf(q) : [];
  return { tokens, key: tokens.join(' '), tsquery: tokens.map((token) => `'${token}':*`).join(' & ') };
}

export function hasAnyFilter(filters: FacetFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && (!Array.isArray(value) || value.length > 0));
}

const lower = (values: readonly string[]) => values.map((value) => value.toLowerCase());

/** Conditions as one fragment starting with `TRUE`, so callers can always append it after WHERE. */
export function matchConditions(sql: Sql, text: QueryText, filters: FacetFilters): Fragment {
  const parts: Fragment[] = [];
  if (text.tokens.length > 0) parts.push(sql`AND tsv @@ ${text.tsquery}::tsquery`);
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

/** The score of a document for the query: round6(base + popularity), precomputed per base. */
export function scoreExpression(sql: Sql, text: QueryText): Fragment {
  if (text.tokens.length === 0) return sql`score0`;
  return sql`CASE WHEN name_key = ${text.key} THEN score3 WHEN tokens @> ${text.tokens}::text[] THEN score2 ELSE score1 END`;
}
