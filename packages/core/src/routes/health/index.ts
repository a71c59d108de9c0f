/** The probes a load balancer or orchestrator calls: liveness and readiness, at the root. */
import type { RouteDef } from '../../http/route.js';
import { healthzRoute } from './healthz.js';
import { readyzRoute } from './readyz.js';

export const HEALTH_ROUTES: readonly RouteDef[] = [healthzRoute, readyzRoute];
