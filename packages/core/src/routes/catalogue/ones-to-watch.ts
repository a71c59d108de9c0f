/** GET {base}/tastemakers/ones-to-watch: recent picks of the top tastemakers that have not broken out yet. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { OneToWatchSchema } from '../../schemas/records.js';
import { limitParam, textParam } from '../../validation/params.js';
import { LIST_CACHE } from '../shared/cache.js';
import { agentLinks } from '../shared/links.js';
import { listOf } from './signal-list.js';

export const onesToWatchRoute = route({
  method: 'GET',
  path: '/tastemakers/ones-to-watch',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Artists picked in the last 180 days by top tastemakers, not yet breakouts',
  tags: ['signals'],
  query: {
    genre: { schema: v.optional(textParam(100, 'Only artists whose main genre is this.')) },
    limit: { schema: limitParam(20) },
  },
  responses: { 200: { description: 'Ones to watch, most backed first.', schema: listOf('OneToWatchList', OneToWatchSchema) } },
  errors: ['invalid_query'],
  async handler({ query, ports, lifetime, config, base }) {
    const result = await ports.catalogue.onesToWatch({ genre: query.genre ?? null, limit: query.limit }, lifetime);
    return json({
      as_of: result.as_of,
      items: result.items.map((o) => ({ ...o, _links: agentLinks(config.baseUrl, base, 'artist', o.cluster_id, o.slug, true) })),
    });
  },
});
