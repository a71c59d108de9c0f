/** Signup, the Stripe webhook and the dashboard, in match order (fixed paths first). */
import type { RouteDef } from '../../http/route.js';
import { dashboardLoginRoute, dashboardLogoutRoute, dashboardSessionRoute } from './dashboard-auth.js';
import { dashboardKeysRoute, dashboardRevokeKeyRoute, dashboardRotateKeyRoute } from './dashboard-keys.js';
import { dashboardPageRoute } from './dashboard-page.js';
import { dashboardSettingsRoute, dashboardUsageRoute } from './dashboard-usage.js';
import { dashboardWelcomeRoute } from './dashboard-welcome.js';
import { signupPageRoute, signupRoute } from './signup.js';
import { stripeWebhookRoute } from './stripe-webhook.js';

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
