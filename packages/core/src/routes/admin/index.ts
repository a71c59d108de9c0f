/** Operator routes behind ADMIN_TOKEN; without a token they are not served at all (404). One line per route. */
import type { RouteDef } from '../../http/route.js';
import { adminKeysRoute } from './keys.js';
import { metricsRoute } from './metrics.js';

export const ADMIN_ROUTES: readonly RouteDef[] = [adminKeysRoute, metricsRoute];
