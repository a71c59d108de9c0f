/**
 * The signed-in customer's keys: list by display prefix only (plus, on the first load after
 * checkout, the one-time reveal), rotate (201 with the new plaintext, the old key answers
 * 401 revoked_api_key from the next request on) and revoke (204).
 */
import { revealContext } from '../../billing/apply-event.js';
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { unseal } from '../../billing/seal.js';
import { newKeyRecord } from '../../gate/issue-key.js';
import { ApiError, invalidQuery, notFound } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { UNDECODABLE_PARAM } from '../../http/router.js';
import type { ApiKey } from '../../ports/index.js';

const NO_STORE = { 'cache-control': 'no-store' };

/** The `<id>` path parameter; the router hands over null for text no store can hold. */
function keyIdOf(id: string | null | undefined): string {
  if (id === null || id === undefined) throw invalidQuery([{ path: 'id', message: UNDECODABLE_PARAM }]);
  return id;
}

export const keyView = (k: ApiKey) => ({
  id: k.id,
  display_prefix: k.display_prefix,
  environment: k.environment,
  status: k.status,
  created_at: k.created_at.toISOString(),
});

export const dashboardKeysRoute = () =>
  route({
    method: 'GET',
    path: '/api/dashboard/keys',
    access: 'open',
    summary: "The signed-in customer's keys, by display prefix",
    description: 'revealed holds a key issued at checkout that was not shown yet: it is returned once, then deleted.',
    tags: ['dashboard'],
    responses: { 200: { description: '{keys: [{id, display_prefix, environment, status, created_at}], revealed: [{id, key}]}' } },
    errors: ['unauthorized'],
    async handler({ request, ports, config, now }) {
      const customer = await sessionCustomer(request, ports, now);
      const revealed: Array<{ id: string; key: string }> = [];
      if (config.secretKey) {
        for (const row of await ports.accounts.takeReveals(customer.id, new Date(now))) {
          revealed.push({ id: row.key_id, key: await unseal(config.secretKey, row.sealed, revealContext(customer.id, row.key_id)) });
        }
      }
      const keys = (await ports.accounts.listKeys(customer.id)).sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1));
      return json({ customer: { email: customer.email, tier: customer.tier, status: customer.status }, keys: keys.map(keyView), revealed }, 200, NO_STORE);
    },
  });

export const dashboardRotateKeyRoute = () =>
  route({
    method: 'POST',
    path: '/api/dashboard/keys/:id',
    access: 'open',
    summary: 'Rotate a key: a new key replaces it at once',
    tags: ['dashboard'],
    responses: { 201: { description: '{key, id, display_prefix, replaces}: the new plaintext, shown once.' } },
    errors: ['unauthorized', 'not_found'],
    async handler({ request, params, ports, config, now }) {
      requireSameOrigin(request, config);
      const customer = await sessionCustomer(request, ports, now);
      const keyId = keyIdOf(params.id);
      const current = (await ports.accounts.listKeys(customer.id)).find((k) => k.id === keyId);
      if (!current) throw notFound('key');
      if (current.status !== 'active') throw new ApiError(400, 'invalid_body', { message: `only an active key can be rotated; this one is ${current.status}` });
      const { plaintext, record } = newKeyRecord(current.environment, new Date(now));
      const rotated = await ports.accounts.rotateKey(customer.id, keyId, record);
      if (!rotated) throw new ApiError(400, 'invalid_body', { message: 'the key changed meanwhile; reload' });
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

export const dashboardRevokeKeyRoute = () =>
  route({
    method: 'DELETE',
    path: '/api/dashboard/keys/:id',
    access: 'open',
    summary: 'Revoke a key: it answers 401 revoked_api_key from the next request on',
    tags: ['dashboard'],
    responses: { 204: { description: 'Revoked.' } },
    errors: ['unauthorized', 'not_found'],
    async handler({ request, params, ports, config, now }) {
      requireSameOrigin(request, config);
      const customer = await sessionCustomer(request, ports, now);
      const revoked = await ports.accounts.revokeKey(customer.id, keyIdOf(params.id));
      if (!revoked) throw notFound('key');
      ports.logger.log({ level: 'info', kind: 'dashboard.key_revoked', customer_id: customer.id, key_id: revoked.id, key_prefix: revoked.display_prefix });
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  });
