/**
 * The v2 keeper routes. Every one but the artist dossier and the manifest is the v1 route
 * factory mounted at /api/v2: one handler, two path spaces.
 */
import type { RouteDef } from '../../http/route.js';
import { searchEventRoutes } from '../beacons/search-events.js';
import { labelRoute, slugDossierRoutes } from '../catalogue/agents.js';
import { facetsRoute } from '../catalogue/facets.js';
import { resolveRoute } from '../catalogue/resolve.js';
import { openApiRoute, rootRoute } from '../catalogue/root.js';
import { searchRoute } from '../catalogue/search.js';
import { breakoutsRoute, onesToWatchRoute, tastemakersRoute } from '../catalogue/signals.js';
import { artistV2Route } from './artist.js';
import { manifestV2Route } from './manifest.js';

export const V2_BASE = '/api/v2';

export function v2Routes(list: () => readonly RouteDef[]): RouteDef[] {
  const v2 = V2_BASE;
  return [
    rootRoute(v2, list),
    openApiRoute(v2, list),
    searchRoute(v2),
    facetsRoute(v2),
    breakoutsRoute(v2),
    tastemakersRoute(v2),
    onesToWatchRoute(v2),
    resolveRoute(v2),
    artistV2Route(),
    labelRoute(v2),
    manifestV2Route(),
    ...slugDossierRoutes(v2),
    ...searchEventRoutes(v2),
  ];
}
