/** The facet filter parameters shared by search and facets, and their cross-field rules. */
import * as v from 'valibot';
import { invalidQuery } from '../../errors/api-error.js';
import type { FacetFilters } from '../../ports/index.js';
import { textParam, yearParam } from '../../validation/params.js';
import type { ParamSpec } from '../../validation/query.js';

const facetValue = (what: string) => ({
  schema: v.optional(textParam(100, `Filter: ${what}. Repeat the parameter to match any of several values.`)),
  multi: true as const,
});

export const filterParams = {
  genre: facetValue('Discogs genre, e.g. Electronic'),
  style: facetValue('Discogs style, e.g. Techno'),
  format: facetValue('format name, e.g. Vinyl'),
  country: facetValue('release country, e.g. Germany'),
  label: facetValue('label name or slug'),
  year_from: { schema: v.optional(yearParam('Earliest year (inclusive).')) },
  year_to: { schema: v.optional(yearParam('Latest year (inclusive).')) },
} satisfies Record<string, ParamSpec>;

interface FilterInput {
  genre?: string[] | undefined;
  style?: string[] | undefined;
  format?: string[] | undefined;
  country?: string[] | undefined;
  label?: string[] | undefined;
  year_from?: number | undefined;
  year_to?: number | undefined;
}

export function filtersOf(query: FilterInput): FacetFilters {
  if (query.year_from !== undefined && query.year_to !== undefined && query.year_from > query.year_to) {
    throw invalidQuery([{ path: 'year_from', message: `must not be greater than year_to (${query.year_to})` }]);
  }
  const filters: FacetFilters = {};
  for (const name of ['genre', 'style', 'format', 'country', 'label'] as const) {
    const values = query[name];
    if (values && values.length > 0) filters[name] = [...new Set(values)];
  }
  if (query.year_from !== undefined) filters.year_from = query.year_from;
  if (query.year_to !== undefined) filters.year_to = query.year_to;
  return filters;
}

export function hasFilters(filters: FacetFilters): boolean {
  return Object.keys(filters).length > 0;
}
