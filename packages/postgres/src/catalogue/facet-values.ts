/** The values a master counts under each facet, shared by live counting and the precomputed totals. */
import type { FacetName } from '@catalogue/core';
import type { Fragment, Sql, TransactionSql } from 'postgres';

/** year_from and year_to both count years, so they share one stored facet. */
export type StoredFacet = 'genre' | 'style' | 'format' | 'country' | 'label' | 'year';

export const STORED_FACETS: readonly StoredFacet[] = ['genre', 'style', 'format', 'country', 'label', 'year'];

export function storedFacetOf(name: FacetName): StoredFacet {
  return name === 'year_from' || name === 'year_to' ? 'year' : name;
}

/**
 * The facet's values of a search_documents row, as a text[] expression over `table`'s columns
 * (`table` is an alias this code names, never input). Each master counts a value once, whatever
 * its array holds twice: callers take DISTINCT. As text for the writer's fills (facet-tables.ts).
 */
export function facetValuesText(facet: StoredFacet, table: string): string {
  const column = (name: string) => `"${table}"."${name}"`;
  switch (facet) {
    case 'genre':
      return column('genres');
    case 'style':
      return column('styles');
    case 'format':
      return column('formats');
    case 'label':
      return column('labels');
    case 'country':
      return `CASE WHEN ${column('country')} IS NULL THEN '{}'::text[] ELSE ARRAY[${column('country')}] END`;
    case 'year':
      return `CASE WHEN ${column('year')} IS NULL THEN '{}'::text[] ELSE ARRAY[${column('year')}::text] END`;
  }
}

/** facetValuesText as a fragment of a query. */
export function facetValuesOf(sql: Sql | TransactionSql, facet: StoredFacet, table: string): Fragment {
  return sql.unsafe(facetValuesText(facet, table)) as unknown as Fragment;
}
