/** GET {base}/search: full-text search with facet filters and keyset paging; answers carry a beacon token. */

import * as v from 'valibot';
import { invalidQuery } from '../../errors/api-error.js';
import { beaconSignerFor } from '../../gate/beacon-token.js';
import { json } from '../../http/json.js';
import { ulidAt } from '../../http/request-id.js';
import { route } from '../../http/route.js';
import { named } from '../../schemas/named.js';
import { SearchHitSchema } from '../../schemas/records.js';
import { cursorParam, limitParam, textParam } from '../../validation/params.js';
import { decodeCursor, encodeCursor } from '../shared/cursor.js';
import { filterParams, filtersOf, hasFilters } from '../shared/filters.js';
import { agentLinks, masterLinks, withRefLinks } from '../shared/links.js';

export const SearchResponseSchema = named(
  'SearchPage',
  v.object({
    hits: v.array(SearchHitSchema),
    next_cursor: v.nullable(v.string()),
    search_id: v.pipe(
      v.string(),
      v.regex(/^srch_[0-9A-Z]{26}$/),
      v.description('Identifies this search in search-event beacons.'),
      v.examples(['srch_01JD3Q9V5TQ8R0Z6W4N2M7XK1C']),
    ),
    corrected: v.pipe(
      v.record(v.string(), v.string()),
      v.description(
        'Query words corrected to find these hits (issue 29): each word as folded (lowercase, ASCII) → the catalogue word the hits matched instead. Words of 5–8 characters may take one edit, of 9 or more two (a transposition is one edit); only a query with no hit holding every word as typed is corrected. An empty object when no word was corrected.',
      ),
      v.examples([{ persuadr: 'persuader' }]),
    ),
    beacon_token: v.pipe(
      v.nullable(v.string()),
      v.description(
        'Bearer token for POST …/search-events/observed and …/refined about this search, valid 30 minutes. null when the deployment has no SECRET_KEY.',
      ),
    ),
  }),
);

export const searchRoute = route({
  method: 'GET',
  path: '/search',
  access: 'key',
  summary: 'Search masters, artists, labels and festivals',
  description:
    'Full-text search with facet filters. Facet filters narrow master hits, so with any filter the type is master (or all, meaning master). Hits are ordered by score, then type, then id; page with next_cursor. When no hit holds every word as typed, words of 5+ characters are corrected to catalogue words one edit away (two from 9 characters), hits that needed fewer corrections first; `corrected` says which.',
  tags: ['search'],
  query: {
    q: { schema: v.optional(textParam(200, 'Free text.')) },
    type: {
      schema: v.optional(
        v.pipe(
          v.picklist(['all', 'master', 'artist', 'label', 'festival'], 'must be one of all, master, artist, label, festival'),
          v.description('Kind of hit. Default all.'),
        ),
        'all',
      ),
    },
    limit: { schema: limitParam(20) },
    cursor: { schema: v.optional(cursorParam) },
    ...filterParams,
  },
  responses: { 200: { description: 'A page of hits.', schema: SearchResponseSchema, headers: ['X-Search-Latency-Ms'] } },
  errors: ['invalid_query'],
  async handler({ query, ports, lifetime, config, base, now, principal }) {
    const started = performance.now();
    const filters = filtersOf(query);
    if (hasFilters(filters) && query.type !== 'all' && query.type !== 'master') {
      throw invalidQuery([{ path: 'type', message: 'facet filters apply to masters: use type=master or type=all' }]);
    }
    const type = hasFilters(filters) ? 'master' : query.type;
    const limit = query.limit;
    const searchQuery = { q: query.q ?? null, type, filters, limit: limit + 1, after: query.cursor ? decodeCursor(query.cursor) : null };
    // A store that corrects typos says which words it corrected; one that does not, none.
    const { hits, corrected } = ports.catalogue.searchPage
      ? await ports.catalogue.searchPage(searchQuery, lifetime)
      : { hits: await ports.catalogue.search(searchQuery, lifetime), corrected: {} };
    const page = hits.slice(0, limit);
    const last = page[page.length - 1];
    const searchId = `srch_${ulidAt(now)}`;
    const signer = beaconSignerFor(config.secretKey);
    const body = {
      hits: page.map((hit) => ({
        ...hit,
        ...(hit.credits ? { credits: hit.credits.map((credit) => withRefLinks(credit, config.baseUrl, base)) } : {}),
        _links: hit.type === 'master' ? masterLinks(config.baseUrl, base, hit.id) : agentLinks(config.baseUrl, base, hit.type, hit.id, hit.slug),
      })),
      next_cursor: hits.length > limit && last ? encodeCursor({ score: last.score, type: last.type, id: last.id }) : null,
      search_id: searchId,
      corrected,
      beacon_token: signer && principal ? signer.issue(searchId, principal.key.id, now) : null,
    };
    return json(body, 200, { 'x-search-latency-ms': (performance.now() - started).toFixed(1) });
  },
});
