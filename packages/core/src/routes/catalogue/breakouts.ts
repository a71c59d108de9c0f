/** GET {base}/breakouts: artists whose growth is far above their own baseline and their genre’s (formulas: catalogue/signals/README.md). */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { BreakoutSchema } from '../../schemas/records.js';
import { limitParam, textParam } from '../../validation/params.js';
import { LIST_CACHE } from '../shared/cache.js';
import { agentLinks } from '../shared/links.js';
import { listOf } from './signal-list.js';

export const breakoutsRoute = route({
  method: 'GET',
  path: '/breakouts',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Artists breaking out: growth far above their own baseline and their genre’s',
  tags: ['signals'],
  query: {
    window: { schema: v.optional(v.pipe(v.picklist(['30d', '90d'], 'must be 30d or 90d'), v.description('Growth window. Default 30d.')), '30d') },
    genre: { schema: v.optional(textParam(100, 'Only artists whose main genre is this.')) },
    limit: { schema: limitParam(20) },
  },
  responses: { 200: { description: 'Breakouts, strongest first.', schema: listOf('BreakoutList', BreakoutSchema) } },
  errors: ['invalid_query'],
  async handler({ query, ports, lifetime, config, base }) {
    const result = await ports.catalogue.breakouts({ window: query.window, genre: query.genre ?? null, limit: query.limit }, lifetime);
    return json({
      as_of: result.as_of,
      items: result.items.map((b) => ({ ...b, _links: agentLinks(config.baseUrl, base, 'artist', b.cluster_id, b.slug, true) })),
    });
  },
});
