/** POST /api/dashboard/keys/{id}: rotate — 201 with the new plaintext; the old key answers 401 revoked_api_key from the next request on. */
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { ApiError, notFound } from '../../errors/api-error.js';
import { newKeyRecord } from '../../gate/issue-key.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, DashboardState } from '../../ports/index.js';
import { keyIdOf, NO_STORE } from './dashboard-key.js';

export const dashboardRotateKeyRoute = route({
  method: 'POST',
  path: '/api/dashboard/keys/:id',
  access: 'open',
  summary: 'Rotate a key: a new key replaces it at once',
  tags: ['dashboard'],
  responses: { 201: { description: '{key, id, display_prefix, replaces}: the new plaintext, shown once.' } },
  errors: ['unauthorized', 'not_found'],
  async handler({ request, params, ports, config, now }: WithAccounts<DashboardState & CustomersAndKeys>) {
    requireSameOrigin(request, config);
    const customer = await sessionCustomer(request, ports, now, config);
    const keyId = keyIdOf(params.id);
    const current = (await ports.accounts.listKeys(customer.id)).find((k) => k.id === keyId);
    if (!current) throw notFound('key');
    if (current.status !== 'active') throw new ApiError('invalid_body', { message: `only an active key can be rotated; this one is ${current.status}` });
    const { plaintext, record } = newKeyRecord(current.environment, new Date(now));
    const rotated = await ports.accounts.rotateKey(customer.id, keyId, record);
    if (!rotated) throw new ApiError('invalid_body', { message: 'the key changed meanwhile; reload' });
    ports.logger.log({
      level: 'info',
      kind: 'dashboard.key_rotated',
      customer_id: customer.id,
      key_id: rotated.key.id,
      key_prefix: rotated.key.display_prefix,
      replaces: keyId,
    });
    return json({ key: plaintext, id: rotated.key.id, display_prefix: rotated.key.display_prefix, replaces: keyId }, 201, NO_STORE);
  },
});
