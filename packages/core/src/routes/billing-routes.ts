/** Signup, the Stripe webhook and the dashboard, in match order (fixed paths first). */
import type { RouteDef } from '../http/route.js';
import { dashboardPageRoute } from '../web/dashboard-page.js';
import { dashboardWelcomeRoute } from '../web/dashboard-welcome.js';
import { signupPageRoute, signupRoute } from '../web/signup.js';
import { dashboardLoginRoute, dashboardLogoutRoute, dashboardSessionRoute } from './account/dashboard-auth.js';
import { dashboardKeysRoute, dashboardRevokeKeyRoute, dashboardRotateKeyRoute } from './account/dashboard-keys.js';
import { dashboardSettingsRoute, dashboardUsageRoute } from './account/dashboard-usage.js';
import { stripeWebhookRoute } from './webhooks/stripe.js';

export function billingRoutes(): RouteDef[] {
  return [
    signupPageRoute(),
    signupRoute(),
    stripeWebhookRoute(),
    dashboardLoginRoute(),
    dashboardSessionRoute(),
    dashboardLogoutRoute(),
    dashboardKeysRoute(),
    dashboardRotateKeyRoute(),
    dashboardRevokeKeyRoute(),
    dashboardUsageRoute(),
    dashboardSettingsRoute(),
    dashboardPageRoute(),
    dashboardWelcomeRoute(),
  ];
}
