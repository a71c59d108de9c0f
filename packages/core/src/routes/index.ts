/** Every route of the service, in match order (fixed paths before parameterised ones). */
import type { ResolvedConfig } from '../config.js';
import { beaconSignerFor } from '../gate/beacon-token.js';
import type { RouteDef } from '../http/route.js';
import { usageRoute } from './account/usage.js';
import { adminKeysRoute } from './admin/keys.js';
import { searchEventRoutes } from './beacons/search-events.js';
import { billingRoutes } from './billing-routes.js';
import { artistRoute, labelRoute, slugDossierRoutes } from './catalogue/agents.js';
import { facetsRoute } from './catalogue/facets.js';
import { resolveRoute } from './catalogue/resolve.js';
import { openApiRoute, rootRoute } from './catalogue/root.js';
import { searchRoute } from './catalogue/search.js';
import { breakoutsRoute, onesToWatchRoute, tastemakersRoute } from './catalogue/signals.js';
import { bandcampArtistRoute, bandcampManifestRoute, bandcampReleaseRoute } from './v1-only/bandcamp.js';
import { manifestRoute } from './v1-only/manifest.js';
import { masterDossierRoute, masterRoute, mastersBatchRoute } from './v1-only/masters.js';
import { migrationGuideRoute } from './v1-only/migration-guide.js';
import { wayfindMasterRoute, wayfindRoute } from './v1-only/wayfind.js';
import { v2Routes } from './v2/index.js';

export function allRoutes(_config: ResolvedConfig): RouteDef[] {
  const v1 = '/api/v1';
  // A SECRET_KEY that is set but malformed or short stops the service here, not at the first search.
  beaconSignerFor(_config.secretKey);
  const routes: RouteDef[] = [];
  const list = () => routes;
  routes.push(
    rootRoute(v1, list),
    openApiRoute(v1, list),
    searchRoute(v1),
    facetsRoute(v1),
    breakoutsRoute(v1),
    tastemakersRoute(v1),
    onesToWatchRoute(v1),
    resolveRoute(v1),
    artistRoute(v1),
    labelRoute(v1),
    manifestRoute(v1),
    masterDossierRoute(),
    ...slugDossierRoutes(v1),
    mastersBatchRoute(),
    masterRoute(),
    bandcampReleaseRoute(),
    bandcampManifestRoute(),
    bandcampArtistRoute(),
    usageRoute(),
    ...searchEventRoutes(v1),
    wayfindRoute(list),
    wayfindMasterRoute(),
    ...v2Routes(list),
    migrationGuideRoute(list),
    adminKeysRoute(),
    ...billingRoutes(),
  );
  return routes;
}
