/** Every route of the service, in match order (fixed paths before parameterised ones). */
import type { ResolvedConfig } from '../config.js';
import { beaconSignerFor } from '../gate/beacon-token.js';
import type { RouteDef } from '../http/route.js';
import { migrationGuideRoute } from './docs/migration-guide.js';
import { adminKeysRoute } from './ops/admin-keys.js';
import { billingRoutes } from './ops/billing-routes.js';
import { searchEventRoutes } from './ops/search-events.js';
import { usageRoute } from './ops/usage.js';
import { wayfindMasterRoute, wayfindRoute } from './ops/wayfind.js';
import { artistRoute, labelRoute, slugDossierRoutes } from './v1/agents.js';
import { bandcampArtistRoute, bandcampManifestRoute, bandcampReleaseRoute } from './v1/bandcamp.js';
import { facetsRoute } from './v1/facets.js';
import { manifestRoute } from './v1/manifest.js';
import { masterDossierRoute, masterRoute, mastersBatchRoute } from './v1/masters.js';
import { resolveRoute } from './v1/resolve.js';
import { openApiRoute, rootRoute } from './v1/root.js';
import { searchRoute } from './v1/search.js';
import { breakoutsRoute, onesToWatchRoute, tastemakersRoute } from './v1/signals.js';
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
