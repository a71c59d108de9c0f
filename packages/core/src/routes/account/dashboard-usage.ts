/** The signed-in customer's usage against the quota (for the chart) and the overage setting. */
import * as v from 'valibot';
import { requireSameOrigin, sessionCustomer } from '../../billing/dashboard-session.js';
import { readFormOrJson } from '../../billing/form-body.js';
import { ApiError } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { Environment, Ports } from '../../ports/index.js';
import { monthOf, policyFor, TIERS } from '../../tiers.js';
import { detailsOf } from '../../validation/issues.js';

const HISTORY_MONTHS = 6;

function lastMonths(now: number, count: number): string[] {
  const d = new Date(now);
  return Array.from({ length: count }, (_, i) => monthOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (count - 1 - i), 1)));
}

async function calls(ports: Ports, customerId: string, environment: Environment, month: string, current: boolean): Promise<number> {
  const durable = await ports.accounts.getUsage(customerId, environment, month);
  // The live counter knows the calls not flushed yet; it may be unreachable (fail open).
  const live = current ? await ports.limiter.monthCount(customerId, environment, month).catch(() => 0) : 0;
  return Math.max(durable, live);
}

export const dashboardUsageRoute = () =>
  route({
    method: 'GET',
    path: '/api/dashboard/usage',
    access: 'open',
    summary: 'Calls per month against the quota (live and test keys)',
    tags: ['dashboard'],
    responses: { 200: { description: '{tier, quota_per_month, overage, month, months: [{month, live, test}]}' } },
    errors: ['unauthorized'],
    async handler({ request, ports, now }) {
      const customer = await sessionCustomer(request, ports, now);
      const current = monthOf(now);
      const months = await Promise.all(
        lastMonths(now, HISTORY_MONTHS).map(async (month) => ({
          month,
          live: await calls(ports, customer.id, 'live', month, month === current),
          test: await calls(ports, customer.id, 'test', month, month === current),
        })),
      );
      const tier = TIERS[customer.tier];
      return json(
        {
          tier: tier.id,
          contract: tier.contract,
          quota_per_month: policyFor(customer).quotaPerMonth,
          overage: customer.overage,
          overage_per_call: tier.overagePerCall,
          month: current,
          months,
        },
        200,
        { 'cache-control': 'no-store' },
      );
    },
  });

export const SettingsRequestSchema = v.object({ overage: v.picklist(['block', 'bill'], 'must be block or bill') });

export const dashboardSettingsRoute = () =>
  route({
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
      const customer = await sessionCustomer(request, ports, now);
      const parsed = v.safeParse(SettingsRequestSchema, await readFormOrJson(request, 1024));
      if (!parsed.success) throw new ApiError(400, 'invalid_body', { details: detailsOf(parsed.issues) });
      if (TIERS[customer.tier].contract)
        throw new ApiError(400, 'invalid_body', { details: [{ path: 'overage', message: 'the contract tier has no overage setting' }] });
      const updated = await ports.accounts.setOverage(customer.id, parsed.output.overage);
      ports.logger.log({ level: 'info', kind: 'dashboard.overage_set', customer_id: customer.id, overage: parsed.output.overage });
      return json({ overage: updated?.overage ?? parsed.output.overage }, 200, { 'cache-control': 'no-store' });
    },
  });
