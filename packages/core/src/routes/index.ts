/**
 * Every API route, registered one group a line. The catalogue and beacon groups are defined
 * with paths relative to a version base and mounted on both /api/v1 and /api/v2; the other
 * groups hold absolute paths. This order is the order of the root index and the OpenAPI
 * documents. The web pages (web/) are added by createService.
 */
import { mount, type RouteDef } from '../http/route.js';
import { ACCOUNT_ROUTES } from './account/index.js';
import { ADMIN_ROUTES } from './admin/index.js';
import { BEACON_ROUTES } from './beacons/index.js';
import { CATALOGUE_ROUTES } from './catalogue/index.js';
import { HEALTH_ROUTES } from './health/index.js';
import { V1_ONLY_ROUTES } from './v1-only/index.js';
import { V2_ROUTES } from './v2/index.js';
import { WEBHOOK_ROUTES } from './webhooks/index.js';

export const API_ROUTES: readonly RouteDef[] = [
  ...mount('/api/v1', CATALOGUE_ROUTES),
  ...V1_ONLY_ROUTES,
  ...mount('/api/v1', BEACON_ROUTES),
  ...mount('/api/v2', CATALOGUE_ROUTES),
  ...V2_ROUTES,
  ...mount('/api/v2', BEACON_ROUTES),
  ...ACCOUNT_ROUTES,
  ...ADMIN_ROUTES,
  ...WEBHOOK_ROUTES,
  ...HEALTH_ROUTES,
];
