/** POST /api/dashboard/logout: ends the session (same-origin only). */
import { clearedSessionCookie, requireSameOrigin, sessionTokenOf } from '../../billing/dashboard-session.js';
import { tokenHash } from '../../billing/tokens.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { DashboardState } from '../../ports/index.js';

export const dashboardLogoutRoute = route({
  method: 'POST',
  path: '/api/dashboard/logout',
  access: 'open',
  summary: 'Sign out of the dashboard',
  tags: ['dashboard'],
  responses: { 204: { description: 'Signed out.' } },
  errors: ['unauthorized'],
  async handler({ request, ports, config }: WithAccounts<DashboardState>) {
    requireSameOrigin(request, config);
    const token = sessionTokenOf(request, config);
    if (token) await ports.accounts.deleteSession(tokenHash(token));
    return new Response(null, { status: 204, headers: { 'set-cookie': clearedSessionCookie(config), 'cache-control': 'no-store' } });
  },
});
