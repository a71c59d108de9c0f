/** GET {base}/label/{key}: the label dossier, by cluster_id, slug or discogs:<label id>. */
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { LabelDossierSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { dossierOf } from '../shared/dossier.js';
import { parseAgentKey } from '../shared/keys.js';

export const labelRoute = route({
  method: 'GET',
  path: '/label/:key',
  access: 'key',
  cache: RECORD_CACHE,
  summary: 'Label dossier',
  description: 'key is a cluster_id, a slug, or discogs:<label id>.',
  tags: ['dossiers'],
  responses: { 200: { description: 'The label dossier.', schema: LabelDossierSchema } },
  errors: ['invalid_query', 'not_found'],
  async handler(ctx) {
    return json(await dossierOf(ctx, 'label', parseAgentKey(ctx.params.key ?? null)));
  },
});
