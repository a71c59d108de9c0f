/** GET {base}/tastemakers: labels and festivals ranked by hit rate and lead time. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { TastemakerSchema } from '../../schemas/records.js';
import { limitParam } from '../../validation/params.js';
import { LIST_CACHE } from '../shared/cache.js';
import { agentLinks } from '../shared/links.js';
import { listOf } from './signal-list.js';

export const tastemakersRoute = route({
  method: 'GET',
  path: '/tastemakers',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Labels and festivals ranked by how often their picks later broke out',
  tags: ['signals'],
  query: {
    kind: { schema: v.optional(v.pipe(v.picklist(['label', 'festival'], 'must be label or festival'), v.description('Only labels or only festivals.'))) },
    limit: { schema: limitParam(20) },
  },
  responses: { 200: { description: 'Tastemakers, best first.', schema: listOf('TastemakerList', TastemakerSchema) } },
  errors: ['invalid_query'],
  async handler({ query, ports, lifetime, config, base }) {
    const result = await ports.catalogue.tastemakers({ kind: query.kind ?? null, limit: query.limit }, lifetime);
    return json({ as_of: result.as_of, items: result.items.map((t) => ({ ...t, _links: agentLinks(config.baseUrl, base, t.kind, t.cluster_id, t.slug) })) });
  },
});
