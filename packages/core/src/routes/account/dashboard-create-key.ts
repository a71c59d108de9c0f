/**
 * POST /api/dashboard/keys: a new key (live or test) for the signed-in customer — 201 with the
 * plaintext, shown once — so revoking the last key never locks a customer out. At most
 * MAX_ACTIVE_KEYS active keys per customer.
 */
import * as v from 'valibot';
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { readValidBody } from '../../billing/form-body.js';
import { ApiError } from '../../errors/api-error.js';
import { newKeyRecord } from '../../gate/issue-key.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, DashboardState } from '../../ports/index.js';
import { keyView, NO_STORE } from './dashboard-key.js';

/** Active keys a customer may hold at once; one per integration, and a spare for a rotation. */
export const MAX_ACTIVE_KEYS = 5;

export const CreateKeyRequestSchema = v.object({ environment: v.picklist(['live', 'test'], 'must be live or test') });

export const dashboardCreateKeyRoute = route({
  method: 'POST',
  path: '/api/dashboard/keys',
  access: 'open',
  summary: `Create a key (live or test); at most ${MAX_ACTIVE_KEYS} active keys per customer`,
  tags: ['dashboard'],
  body: { schema: CreateKeyRequestSchema, description: '{environment: "live" | "test"}', maxBytes: 1024 },
  responses: { 201: { description: '{key, id, display_prefix, environment, status, created_at}: the new plaintext, shown once.' } },
  errors: ['unauthorized', 'invalid_body'],
  async handler({ request, ports, config, now }: WithAccounts<DashboardState & CustomersAndKeys>) {
    requireSameOrigin(request, config);
    const customer = await sessionCustomer(request, ports, now, config);
    const body = await readValidBody(request, CreateKeyRequestSchema, 1024);
    const { plaintext, record } = newKeyRecord(body.environment, new Date(now));
    const created = await ports.accounts.addKeyCapped(customer.id, record, MAX_ACTIVE_KEYS);
    if (!created) {
      throw new ApiError('invalid_body', {
        message: `You already have ${MAX_ACTIVE_KEYS} active keys, the most an account may hold. Revoke one you no longer use, then create the new one.`,
        details: [{ path: 'environment', message: `at most ${MAX_ACTIVE_KEYS} active keys per customer` }],
      });
    }
    ports.logger.log({ level: 'info', kind: 'dashboard.key_created', customer_id: customer.id, key_id: created.id, key_prefix: created.display_prefix });
    return json({ key: plaintext, ...keyView(created) }, 201, NO_STORE);
  },
});
