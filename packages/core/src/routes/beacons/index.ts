/**
 * The search-event beacons, authenticated by the search answer's beacon token instead of a key;
 * paths are relative: routes/index.ts mounts them on /api/v1 and /api/v2. One line per route.
 */
import type { RouteDef } from '../../http/route.js';
import { observedRoute } from './observed.js';
import { refinedRoute } from './refined.js';

export const BEACON_ROUTES: readonly RouteDef[] = [observedRoute, refinedRoute];
