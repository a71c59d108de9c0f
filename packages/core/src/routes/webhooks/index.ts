/** Calls from other systems, each verifying its own signature. One line per route. */
import type { RouteDef } from '../../http/route.js';
import { stripeWebhookRoute } from './stripe.js';

export const WEBHOOK_ROUTES: readonly RouteDef[] = [stripeWebhookRoute];
