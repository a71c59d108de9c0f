/** GET {base}/dossier/{artist|label|festival}/{slug}: the three dossiers by slug, one definition. */
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { ArtistDossierSchema, FestivalDossierSchema, LabelDossierSchema } from '../../schemas/records.js';
import { RECORD_CACHE } from '../shared/cache.js';
import { dossierOf } from '../shared/dossier.js';
import { parseSlug } from '../shared/keys.js';

const SLUG_DOSSIERS = [
  { kind: 'artist', schema: ArtistDossierSchema },
  { kind: 'label', schema: LabelDossierSchema },
  { kind: 'festival', schema: FestivalDossierSchema },
] as const;

export const slugDossierRoutes = SLUG_DOSSIERS.map(({ kind, schema }) =>
  route({
    method: 'GET',
    path: `/dossier/${kind}/:slug`,
    access: 'key',
    cache: RECORD_CACHE,
    summary: `${kind[0]?.toUpperCase()}${kind.slice(1)} dossier by slug`,
    tags: ['dossiers'],
    responses: { 200: { description: `The ${kind} dossier.`, schema } },
    errors: ['invalid_query', 'not_found'],
    async handler(ctx) {
      return json(await dossierOf(ctx, kind, parseSlug(ctx.params.slug ?? null)));
    },
  }),
);
