/**
 * The web UI: the HTML pages a browser walks — the signup plans and checkout hand-off, the
 * sign-in link, the dashboard and the post-checkout welcome. They contribute route definitions
 * like any group; routes/ never imports this folder, createService adds these to the API's.
 */
import type { RouteDef } from '../http/route.js';
import { dashboardPageRoute } from './dashboard-page.js';
import { dashboardSessionRoute, dashboardSessionSpendRoute } from './dashboard-session.js';
import { dashboardWelcomeRoute } from './dashboard-welcome.js';
import { signupRoute } from './signup.js';
import { signupPageRoute } from './signup-page.js';

export const WEB_ROUTES: readonly RouteDef[] = [
  signupPageRoute,
  signupRoute,
  dashboardSessionRoute,
  dashboardSessionSpendRoute,
  dashboardPageRoute,
  dashboardWelcomeRoute,
];
