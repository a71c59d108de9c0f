/** GET {base}/facets: facet value counts over the filtered master set. */
import * as v from 'valibot';
import { ApiError } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { FACET_NAMES, type FacetName } from '../../ports/index.js';
import { named } from '../../schemas/named.js';
import { FacetValueSchema } from '../../schemas/records.js';
import { limitParam, textParam } from '../../validation/params.js';
import { LIST_CACHE } from '../shared/cache.js';
import { filterParams, filtersOf } from '../shared/filters.js';

export const FacetsResponseSchema = named(
  'FacetCounts',
  v.object({
    total: v.number(),
    facets: v.record(v.string(), v.array(FacetValueSchema)),
  }),
);

/** `facets=genre,style`: each name NFKC-normalized and checked against the allowlist. */
export function parseFacetNames(raw: string): FacetName[] {
  const names: FacetName[] = [];
  const details: Array<{ path: string; message: string; raw: string; normalized: string }> = [];
  for (const part of raw.split(',')) {
    const normalized = part.normalize('NFKC').trim();
    if ((FACET_NAMES as readonly string[]).includes(normalized)) {
      if (!names.includes(normalized as FacetName)) names.push(normalized as FacetName);
    } else {
      details.push({ path: 'facets', message: `not a facet name; allowed: ${FACET_NAMES.join(', ')}`, raw: part, normalized });
    }
  }
  if (details.length > 0) throw new ApiError('invalid_facet', { details });
  return names;
}

export const facetsRoute = route({
  method: 'GET',
  path: '/facets',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Count facet values over the filtered master set',
  description:
    'facets names the facets to count (comma-separated, from the allowlist genre, style, format, country, year_from, year_to, label; year_from and year_to both count years). The filter parameters narrow the set first.',
  tags: ['search'],
  query: {
    facets: { schema: v.optional(textParam(200, 'Comma-separated facet names to count. Default genre,style.'), 'genre,style') },
    q: { schema: v.optional(textParam(200, 'Free text narrowing the set.')) },
    limit: { schema: limitParam(20, 'Values per facet, 1 to 100.') },
    ...filterParams,
  },
  responses: { 200: { description: 'Counts per facet value, most frequent first.', schema: FacetsResponseSchema } },
  errors: ['invalid_query', 'invalid_facet'],
  async handler({ query, ports, lifetime, url }) {
    // invalid_facet reports the raw text as sent, so read it before NFKC normalization.
    const raw = [...url.searchParams].find(([name]) => name.normalize('NFKC') === 'facets')?.[1] ?? query.facets;
    const facets = parseFacetNames(raw);
    const result = await ports.catalogue.facets({ q: query.q ?? null, facets, filters: filtersOf(query), limit: query.limit }, lifetime);
    return json({ total: result.total, facets: result.facets });
  },
});
