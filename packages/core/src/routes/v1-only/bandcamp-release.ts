/** GET /api/v1/bandcamp/release: Bandcamp release data by release link or by artist. Demoted like every Bandcamp route. */
import * as v from 'valibot';
import { invalidQuery, notFound } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { BandcampReleaseData } from '../../ports/index.js';
import { named } from '../../schemas/named.js';
import { BandcampReleaseSchema } from '../../schemas/records.js';
import { textParam } from '../../validation/params.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { parseAgentKey } from '../shared/keys.js';
import { BANDCAMP_WHERE, MANIFEST_SUCCESSOR } from './deprecations.js';

export const BandcampReleasesSchema = named(
  'BandcampReleases',
  v.object({
    artist: v.object({ cluster_id: v.number(), slug: v.string(), name: v.string() }),
    releases: v.array(BandcampReleaseSchema),
  }),
);

export const bandcampReleaseRoute = route({
  method: 'GET',
  path: '/api/v1/bandcamp/release',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'Bandcamp release data, by release link or by artist',
  tags: ['bandcamp'],
  query: {
    url: { schema: v.optional(textParam(2000, 'A Bandcamp release link (https://<artist>.bandcamp.com/album/…).')) },
    artist: { schema: v.optional(textParam(200, 'An artist key: cluster_id, slug or typed locator.')) },
  },
  responses: { 200: { description: 'The artist and the matching releases.', schema: BandcampReleasesSchema } },
  errors: ['invalid_query', 'not_found'],
  deprecation: {
    successor: (_params, query) => {
      const artist = query.get('artist');
      if (artist) return `/api/v2/artist/${encodeURIComponent(artist)}?fields=bandcamp`;
      const url = query.get('url');
      return url ? `/api/v2/resolve?url=${encodeURIComponent(url)}` : MANIFEST_SUCCESSOR;
    },
    where: BANDCAMP_WHERE,
  },
  async handler({ query, ports, lifetime }) {
    if ((query.url === undefined) === (query.artist === undefined)) {
      throw invalidQuery([{ path: 'url', message: 'give exactly one of url, artist' }]);
    }
    let result: BandcampReleaseData | null;
    if (query.url !== undefined) {
      if (!/^https?:\/\/[a-z0-9-]+\.bandcamp\.com\/(album|track)\/[^?#\s]+/i.test(query.url)) {
        throw invalidQuery([{ path: 'url', message: 'must be a Bandcamp album or track link' }]);
      }
      result = await ports.catalogue.bandcampReleases({ by: 'url', url: query.url.replace(/[?#].*$/, '') }, lifetime);
    } else {
      const agent = await ports.catalogue.findAgent(parseAgentKey(query.artist as string, 'artist'), 'artist', lifetime);
      if (!agent) throw notFound('artist');
      result = await ports.catalogue.bandcampReleases({ by: 'artist', cluster_id: agent.cluster_id }, lifetime);
    }
    if (!result) throw notFound('bandcamp release');
    return json(result);
  },
});
