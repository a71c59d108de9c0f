/** Breakouts, tastemakers and ones-to-watch: lists computed by the formulas in signals/. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { BreakoutSchema, OneToWatchSchema, TastemakerSchema } from '../../schemas/records.js';
import { limitParam, textParam } from '../../validation/params.js';
import { agentLinks } from '../shared/links.js';

const listOf = <T extends v.GenericSchema>(item: T) => v.object({ as_of: v.nullable(v.string()), items: v.array(item) });

export const breakoutsRoute = (base: string) =>
  route({
    method: 'GET',
    path: `${base}/breakouts`,
    access: 'key',
    summary: 'Artists breaking out: growth far above their own baseline and their genre’s',
    tags: ['signals'],
    query: {
      window: { schema: v.optional(v.pipe(v.picklist(['30d', '90d'], 'must be 30d or 90d'), v.description('Growth window. Default 30d.')), '30d') },
      genre: { schema: v.optional(textParam(100, 'Only artists whose main genre is this.')) },
      limit: { schema: limitParam(20) },
    },
    responses: { 200: { description: 'Breakouts, strongest first.', schema: listOf(BreakoutSchema) } },
    errors: ['invalid_query'],
    async handler({ query, ports, lifetime, config, base }) {
      const result = await ports.catalogue.breakouts({ window: query.window, genre: query.genre ?? null, limit: query.limit }, lifetime);
      return json({
        as_of: result.as_of,
        items: result.items.map((b) => ({ ...b, _links: agentLinks(config.baseUrl, base, 'artist', b.cluster_id, b.slug) })),
      });
    },
  });

export const tastemakersRoute = (base: string) =>
  route({
    method: 'GET',
    path: `${base}/tastemakers`,
    access: 'key',
    summary: 'Labels and festivals ranked by how often their picks later broke out',
    tags: ['signals'],
    query: {
      kind: { schema: v.optional(v.pipe(v.picklist(['label', 'festival'], 'must be label or festival'), v.description('Only labels or only festivals.'))) },
      limit: { schema: limitParam(20) },
    },
    responses: { 200: { description: 'Tastemakers, best first.', schema: listOf(TastemakerSchema) } },
    errors: ['invalid_query'],
    async handler({ query, ports, lifetime, config, base }) {
      const result = await ports.catalogue.tastemakers({ kind: query.kind ?? null, limit: query.limit }, lifetime);
      return json({ as_of: result.as_of, items: result.items.map((t) => ({ ...t, _links: agentLinks(config.baseUrl, base, t.kind, t.cluster_id, t.slug) })) });
    },
  });

export const onesToWatchRoute = (base: string) =>
  route({
    method: 'GET',
    path: `${base}/tastemakers/ones-to-watch`,
    access: 'key',
    summary: 'Artists picked in the last 180 days by top tastemakers, not yet breakouts',
    tags: ['signals'],
    query: {
      genre: { schema: v.optional(textParam(100, 'Only artists whose main genre is this.')) },
      limit: { schema: limitParam(20) },
    },
    responses: { 200: { description: 'Ones to watch, most backed first.', schema: listOf(OneToWatchSchema) } },
    errors: ['invalid_query'],
    async handler({ query, ports, lifetime, config, base }) {
      const result = await ports.catalogue.onesToWatch({ genre: query.genre ?? null, limit: query.limit }, lifetime);
      return json({
        as_of: result.as_of,
        items: result.items.map((o) => ({ ...o, _links: agentLinks(config.baseUrl, base, 'artist', o.cluster_id, o.slug) })),
      });
    },
  });
