/** DELETE /api/dashboard/keys/{id}: revoke (204), effective on the next request. */
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { notFound } from '../../errors/api-error.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, DashboardState } from '../../ports/index.js';
import { keyIdOf, NO_STORE } from './dashboard-key.js';

export const dashboardRevokeKeyRoute = route({
  method: 'DELETE',
  path: '/api/dashboard/keys/:id',
  access: 'open',
  summary: 'Revoke a key: it answers 401 revoked_api_key from the next request on',
  tags: ['dashboard'],
  responses: { 204: { description: 'Revoked.' } },
  errors: ['unauthorized', 'not_found'],
  async handler({ request, params, ports, config, now }: WithAccounts<DashboardState & CustomersAndKeys>) {
    requireSameOrigin(request, config);
    const customer = await sessionCustomer(request, ports, now, config);
    const revoked = await ports.accounts.revokeKey(customer.id, keyIdOf(params.id));
    if (!revoked) throw notFound('key');
    ports.logger.log({ level: 'info', kind: 'dashboard.key_revoked', customer_id: customer.id, key_id: revoked.id, key_prefix: revoked.display_prefix });
    return new Response(null, { status: 204, headers: NO_STORE });
  },
});
