/** GET /api/v1/bandcamp: the artists covered, their latest counts and the fields served. Demoted like every Bandcamp route. */
import * as v from 'valibot';
import { CLUSTER_ID_RANGE } from '../../catalogue/id-ranges.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { named } from '../../schemas/named.js';
import { integerParam, limitParam, textParam } from '../../validation/params.js';
import { LIST_CACHE } from '../shared/cache.js';
import { BANDCAMP_WHERE, MANIFEST_SUCCESSOR } from './deprecations.js';

export const BandcampManifestSchema = named(
  'BandcampManifest',
  v.object({
    as_of: v.nullable(v.string()),
    artists: v.array(v.object({ cluster_id: v.number(), slug: v.string(), name: v.string(), url: v.string(), followers: v.number(), supporters: v.number() })),
    next_cursor: v.nullable(v.string()),
    fields: v.record(v.string(), v.string()),
  }),
);

const MANIFEST_FIELDS = {
  followers: 'Bandcamp followers at the latest observation (as_of).',
  supporters: 'Distinct supporters (buyers) at the latest observation.',
  series: 'Weekly observations, last 12 weeks: GET /api/v1/bandcamp/{artistKey}.',
  growth: 'Relative growth of followers + 2 × supporters over 30 and 90 days.',
  releases: 'Releases with tags: GET /api/v1/bandcamp/release?artist={key}.',
};

export const bandcampManifestRoute = route({
  method: 'GET',
  path: '/api/v1/bandcamp',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Bandcamp manifest: the artists covered, their latest counts, and the fields served',
  tags: ['bandcamp'],
  query: {
    tag: { schema: v.optional(textParam(100, 'Only artists with a release carrying this tag.')) },
    limit: { schema: limitParam(50) },
    // The cursor is the last artist's cluster_id: above what the catalogue holds it was tampered with.
    cursor: { schema: v.optional(integerParam(1, CLUSTER_ID_RANGE.held, 'next_cursor of the previous page.')) },
  },
  responses: { 200: { description: 'A page of covered artists.', schema: BandcampManifestSchema } },
  errors: ['invalid_query'],
  deprecation: { successor: () => MANIFEST_SUCCESSOR, where: BANDCAMP_WHERE },
  async handler({ query, ports, lifetime }) {
    const manifest = await ports.catalogue.bandcampManifest({ tag: query.tag ?? null, limit: query.limit + 1, after: query.cursor ?? null }, lifetime);
    const page = manifest.artists.slice(0, query.limit);
    const last = page[page.length - 1];
    return json({
      as_of: manifest.as_of,
      artists: page,
      next_cursor: manifest.artists.length > query.limit && last ? String(last.cluster_id) : null,
      fields: MANIFEST_FIELDS,
    });
  },
});
