/**
 * GET /api/v2/dossier/manifest: the v1 field map, with the discography facet describing the
 * master and release detail it now carries, and `detail` saying where every piece of the
 * demoted v1 routes sits (route + JSON pointer).
 */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { named } from '../../schemas/named.js';
import { LIST_CACHE } from '../shared/cache.js';
import { ManifestSchema, manifestFor } from '../shared/dossier-fields.js';

const field = (type: string, description: string) => ({ type, description });

const DISCOGRAPHY_V2 = {
  counts: field('{masters, main, appearances}', 'Totals.'),
  masters: field(
    '{master_id, title, year, role, genres, styles, master, releases, release_count}[]',
    'Masters, newest first, at most 500, each with its detail.',
  ),
  'masters[].master': field('master', 'The full master record (what GET /api/v1/masters/{id} served).'),
  'masters[].releases': field('release[]', 'Releases of the master, at most 100 (what GET /api/v1/dossier/master/{id} served).'),
  'masters[].release_count': field('integer', 'Total releases of the master.'),
};

const LocationSchema = v.object({ route: v.string(), pointer: v.string(), description: v.string(), replaces: v.array(v.string()) });

export const V2ManifestSchema = named(
  'V2DossierManifest',
  v.object({
    ...ManifestSchema.entries,
    detail: v.object({ master: LocationSchema, release: LocationSchema, bandcamp: LocationSchema }),
  }),
);

export function v2Manifest() {
  const base = manifestFor('/api/v2');
  const { master: _demoted, ...dossiers } = base.dossiers as Record<string, { route: string; facets: Record<string, unknown> }>;
  const artist = dossiers.artist as { route: string; facets: Record<string, unknown> };
  return {
    ...base,
    dossiers: { ...dossiers, artist: { ...artist, facets: { ...artist.facets, discography: DISCOGRAPHY_V2 } } },
    detail: {
      master: {
        route: '/api/v2/artist/{cluster_id}?fields=discography',
        pointer: '/discography/masters/{i}/master',
        description:
          'Each master sits in the discography of its artists; GET /api/v2/resolve?discogs=master/{id} names its main artist and GET /api/v1/wayfind/master/{id} gives the exact index i.',
        replaces: ['GET /api/v1/masters/{id}', 'POST /api/v1/masters/batch', 'GET /api/v1/dossier/master/{id}'],
      },
      release: {
        route: '/api/v2/artist/{cluster_id}?fields=discography',
        pointer: '/discography/masters/{i}/releases',
        description: 'Releases sit under their master, with release_count beside them.',
        replaces: ['GET /api/v1/dossier/master/{id}'],
      },
      bandcamp: {
        route: '/api/v2/artist/{cluster_id}?fields=bandcamp',
        pointer: '/bandcamp',
        description: 'Followers, supporters, releases with tags, 12-week series and growth; null when the artist has no Bandcamp page.',
        replaces: ['GET /api/v1/bandcamp/{artistKey}', 'GET /api/v1/bandcamp', 'GET /api/v1/bandcamp/release'],
      },
    },
    notes: [...base.notes, 'Canonical flow: GET /api/v2/resolve once, then GET /api/v2/artist/{cluster_id}, optionally with fields.'],
  };
}

export const manifestV2Route = route({
  method: 'GET',
  path: '/api/v2/dossier/manifest',
  access: 'key',
  cache: LIST_CACHE,
  summary: 'Field map of the dossiers, and where master, release and Bandcamp detail sit',
  tags: ['dossiers'],
  responses: {
    200: {
      description: 'Every facet and field with type and description, and the location of the detail v1 served from its demoted routes.',
      schema: V2ManifestSchema,
    },
  },
  handler() {
    return json(v2Manifest());
  },
});
