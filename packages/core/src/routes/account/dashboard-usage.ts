import { sessionCustomer } from '../../billing/dashboard-session.js';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { Environment, Ports } from '../../ports/index.js';
import { monthOf, policyFor, TIERS } from '../../tiers.js';

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

export const dashboardUsageRoute = route({
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
