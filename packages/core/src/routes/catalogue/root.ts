/** GET {base}: the self-describing root index of a version. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { named } from '../../schemas/named.js';
import { cutoverPhase, MIGRATION_GUIDE_PATH, sunsetInstant } from '../../versioning.js';
import { LIST_CACHE } from '../shared/cache.js';

export const RootSchema = named(
  'RootIndex',
  v.object({
    name: v.pipe(v.string(), v.examples(['Music Catalogue Data Service'])),
    version: v.picklist(['v1', 'v2']),
    authentication: v.pipe(v.string(), v.examples(['Send your API key in the X-API-Key header.'])),
    sunset_at: v.pipe(v.optional(v.string()), v.description('ISO instant of the v1 sunset; present from 60 days before it.')),
    _links: v.object({
      self: v.string(),
      openapi: v.string(),
      docs: v.string(),
      migration_guide: v.pipe(v.optional(v.string()), v.description('The v1 → v2 migration guide; present from 60 days before the v1 sunset.')),
    }),
    routes: v.array(v.object({ method: v.string(), path: v.string(), auth: v.picklist(['none', 'key', 'beacon_token']), summary: v.string() })),
  }),
);

export const rootRoute = route({
  method: 'GET',
  path: '',
  access: 'public',
  cache: LIST_CACHE,
  summary: 'Self-describing root index',
  tags: ['meta'],
  responses: { 200: { description: 'Links to the documentation and every route of this version.', schema: RootSchema } },
  handler({ config, now, base, routes }) {
    const list = routes.filter((r) => (r.path === base || r.path.startsWith(`${base}/`)) && r.access !== 'admin');
    const sunset = sunsetInstant(config);
    // The guide is published 60 days before the sunset (docs/decisions.md §7).
    const guide = sunset !== null && cutoverPhase(sunset, now) !== 'none';
    return json({
      name: 'Music Catalogue Data Service',
      version: base.slice(5),
      authentication: 'Send your API key in the X-API-Key header.',
      ...(guide ? { sunset_at: new Date(sunset).toISOString() } : {}),
      _links: {
        self: config.baseUrl + base,
        openapi: `${config.baseUrl}${base}/openapi.json`,
        docs: `${config.baseUrl}/docs`,
        ...(guide ? { migration_guide: config.baseUrl + MIGRATION_GUIDE_PATH } : {}),
      },
      routes: list.map((r) => ({
        method: r.method,
        path: r.path.replace(/:(\w+)/g, '{$1}'),
        auth: r.tags.includes('beacons') ? 'beacon_token' : r.access === 'public' || r.access === 'open' ? 'none' : 'key',
        summary: r.summary,
      })),
    });
  },
});
