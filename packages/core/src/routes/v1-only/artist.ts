/** GET /api/v1/artist/{key}: the v1 artist dossier (v2 has its own, trimmed by fields, in v2/artist.ts). */
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { ArtistDossierSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { dossierOf } from '../shared/dossier.js';
import { parseAgentKey } from '../shared/keys.js';

export const artistRoute = route({
  method: 'GET',
  path: '/api/v1/artist/:key',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'Full artist dossier',
  description: 'key is a cluster_id, a slug, or a typed locator (discogs:123, mbid:<uuid>). Facets: identity, behavior, discography, bandcamp.',
  tags: ['dossiers'],
  responses: { 200: { description: 'The artist dossier.', schema: ArtistDossierSchema } },
  errors: ['invalid_query', 'not_found'],
  async handler(ctx) {
    return json(await dossierOf(ctx, 'artist', parseAgentKey(ctx.params.key ?? null)));
  },
});
