/** POST /api/dashboard/settings: what happens past the monthly quota — block (429) or bill the overage. */
import * as v from 'valibot';
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { readFormOrJson } from '../../billing/form-body.js';
import { ApiError } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { TIERS } from '../../tiers.js';
import { detailsOf } from '../../validation/issues.js';

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
  async handler({ request, ports, config, now }) {
    requireSameOrigin(request, config);
    const customer = await sessionCustomer(request, ports, now, config);
    const parsed = v.safeParse(SettingsRequestSchema, await readFormOrJson(request, 1024));
    if (!parsed.success) throw new ApiError(400, 'invalid_body', { details: detailsOf(parsed.issues) });
    if (TIERS[customer.tier].contract)
      throw new ApiError(400, 'invalid_body', { details: [{ path: 'overage', message: 'the contract tier has no overage setting' }] });
    const updated = await ports.accounts.setOverage(customer.id, parsed.output.overage);
    ports.logger.log({ level: 'info', kind: 'dashboard.overage_set', customer_id: customer.id, overage: parsed.output.overage });
    return json({ overage: updated?.overage ?? parsed.output.overage }, 200, { 'cache-control': 'no-store' });
  },
});
