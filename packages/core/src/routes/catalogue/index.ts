/**
 * The catalogue routes, shared by v1 and v2: paths are relative to the version base, and
 * routes/index.ts mounts this one list on /api/v1 and on /api/v2. One line per route.
 */
import type { RouteDef } from '../../http/route.js';
import { breakoutsRoute } from './breakouts.js';
import { slugDossierRoutes } from './dossier-by-slug.js';
import { facetsRoute } from './facets.js';
import { labelRoute } from './label.js';
import { onesToWatchRoute } from './ones-to-watch.js';
import { openApiRoute } from './openapi-document.js';
import { resolveRoute } from './resolve.js';
import { rootRoute } from './root.js';
import { searchRoute } from './search.js';
import { tastemakersRoute } from './tastemakers.js';

export const CATALOGUE_ROUTES: readonly RouteDef[] = [
  rootRoute,
  openApiRoute,
  searchRoute,
  facetsRoute,
  breakoutsRoute,
  tastemakersRoute,
  onesToWatchRoute,
  resolveRoute,
  labelRoute,
  ...slugDossierRoutes,
];
