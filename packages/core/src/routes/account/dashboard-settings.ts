/** POST /api/dashboard/settings: what happens past the monthly quota — block (429) or bill the overage. */
import * as v from 'valibot';
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { readValidBody } from '../../billing/form-body.js';
import { ApiError } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { BillingState, CustomersAndKeys, DashboardState } from '../../ports/index.js';
import { TIERS } from '../../tiers.js';

export const SettingsRequestSchema = v.object({ overage: v.picklist(['block', 'bill'], 'must be block or bill') });

export const dashboardSettingsRoute = route({
  method: 'POST',
  path: '/api/dashboard/settings',
  access: 'open',
  summary: 'What happens past the monthly quota: block (429) or bill the overage',
  tags: ['dashboard'],
  body: { schema: SettingsRequestSchema, description: '{overage: "block" | "bill"}', maxBytes: 1024 },
  responses: { 200: { description: '{overage}' } },
  errors: ['unauthorized', 'invalid_body'],
  async handler({ request, ports, config, now }: WithAccounts<DashboardState & CustomersAndKeys & BillingState>) {
    requireSameOrigin(request, config);
    const customer = await sessionCustomer(request, ports, now, config);
    const body = await readValidBody(request, SettingsRequestSchema, 1024);
    if (TIERS[customer.tier].contract)
      throw new ApiError('invalid_body', { details: [{ path: 'overage', message: 'the contract tier has no overage setting' }] });
    const updated = await ports.accounts.setOverage(customer.id, body.overage);
    ports.logger.log({ level: 'info', kind: 'dashboard.overage_set', customer_id: customer.id, overage: body.overage });
    return json({ overage: updated?.overage ?? body.overage }, 200, { 'cache-control': 'no-store' });
  },
});
