/** GET /api/v1/dossier/manifest: the v1 field map of the dossiers (v2's says where master and release detail sit). */
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { LIST_CACHE } from '../shared/cache.js';
import { ManifestSchema, manifestFor } from '../shared/dossier-fields.js';

export const manifestRoute = route({
  method: 'GET',
  path: '/api/v1/dossier/manifest',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Field map of the dossiers',
  tags: ['dossiers'],
  responses: { 200: { description: 'Every facet and field with type and description.', schema: ManifestSchema } },
  handler() {
    return json(manifestFor('/api/v1'));
  },
});
