/**
 * The routes only /api/v2 has: the cluster-first artist dossier (trimmed by `fields`, its
 * discography carrying master and release detail) and the field map that says where that
 * detail sits. Everything else v2 serves is the catalogue group, mounted on both bases.
 */
import type { RouteDef } from '../../http/route.js';
import { artistV2Route } from './artist.js';
import { manifestV2Route } from './manifest.js';

export const V2_ROUTES: readonly RouteDef[] = [artistV2Route, manifestV2Route];
