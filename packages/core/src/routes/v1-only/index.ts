/**
 * The routes only /api/v1 has: the v1 artist dossier and field map, the demoted master and
 * Bandcamp routes (each declares its successor), and the migration helpers (wayfind, the
 * guide at /docs/migration). One line per route.
 */
import type { RouteDef } from '../../http/route.js';
import { artistRoute } from './artist.js';
import { bandcampArtistRoute } from './bandcamp-artist.js';
import { bandcampManifestRoute } from './bandcamp-manifest.js';
import { bandcampReleaseRoute } from './bandcamp-release.js';
import { manifestRoute } from './manifest.js';
import { masterRoute } from './master.js';
import { masterDossierRoute } from './master-dossier.js';
import { mastersBatchRoute } from './masters-batch.js';
import { migrationGuideRoute } from './migration-guide.js';
import { wayfindRoute } from './wayfind.js';
import { wayfindMasterRoute } from './wayfind-master.js';

export const V1_ONLY_ROUTES: readonly RouteDef[] = [
  artistRoute,
  manifestRoute,
  masterDossierRoute,
  mastersBatchRoute,
  masterRoute,
  bandcampReleaseRoute,
  bandcampManifestRoute,
  bandcampArtistRoute,
  wayfindRoute,
  wayfindMasterRoute,
  migrationGuideRoute,
];
