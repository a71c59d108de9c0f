/** GET /api/v1/bandcamp/{artistKey}: an artist's Bandcamp signals. Demoted: v2 has them in the artist's bandcamp facet. */
import * as v from 'valibot';
import { notFound } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { BandcampSignalsSchema, LinksSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { parseAgentKey } from '../shared/keys.js';
import { agentLinks } from '../shared/links.js';
import { BANDCAMP_WHERE } from './deprecations.js';

export const bandcampArtistRoute = route({
  method: 'GET',
  path: '/api/v1/bandcamp/:artistKey',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'Bandcamp signals of an artist',
  tags: ['bandcamp'],
  responses: {
    200: {
      description: 'Followers, supporters, releases, tags, 12-week series and growth.',
      schema: v.object({ ...BandcampSignalsSchema.entries, _links: LinksSchema }),
    },
  },
  errors: ['invalid_query', 'not_found'],
  deprecation: {
    successor: (params) => `/api/v2/artist/${encodeURIComponent(params.artistKey ?? '')}?fields=bandcamp`,
    where: BANDCAMP_WHERE,
  },
  async handler({ params, ports, lifetime, config }) {
    const agent = await ports.catalogue.findAgent(parseAgentKey(params.artistKey ?? null, 'artistKey'), 'artist', lifetime);
    if (!agent) throw notFound('artist');
    const signals = await ports.catalogue.bandcampArtist(agent.cluster_id, lifetime);
    if (!signals) throw notFound('bandcamp signals for this artist');
    return json({ ...signals, _links: agentLinks(config.baseUrl, '/api/v1', 'artist', agent.cluster_id, agent.slug, true) });
  },
});
