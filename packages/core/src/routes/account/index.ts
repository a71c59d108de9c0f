/**
 * A customer's own account: usage by key, and the dashboard's JSON API (sign-in link, keys,
 * usage, overage setting) behind the session cookie. The dashboard pages are in web/. One line
 * per route.
 */
import type { RouteDef } from '../../http/route.js';
import { dashboardCreateKeyRoute } from './dashboard-create-key.js';
import { dashboardKeysRoute } from './dashboard-keys.js';
import { dashboardLoginRoute } from './dashboard-login.js';
import { dashboardLogoutRoute } from './dashboard-logout.js';
import { dashboardRevokeKeyRoute } from './dashboard-revoke-key.js';
import { dashboardRotateKeyRoute } from './dashboard-rotate-key.js';
import { dashboardSettingsRoute } from './dashboard-settings.js';
import { dashboardUsageRoute } from './dashboard-usage.js';
import { usageRoute } from './usage.js';

export const ACCOUNT_ROUTES: readonly RouteDef[] = [
  usageRoute,
  dashboardLoginRoute,
  dashboardLogoutRoute,
  dashboardKeysRoute,
  dashboardCreateKeyRoute,
  dashboardRotateKeyRoute,
  dashboardRevokeKeyRoute,
  dashboardUsageRoute,
  dashboardSettingsRoute,
];
