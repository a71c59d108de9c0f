import { sessionCustomer } from '../../billing/dashboard-session.js';
import { json } from '../../http/json.js';
import { route, type WithAccounts } from '../../http/route.js';
import type { CustomersAndKeys, DashboardState, DurableUsage, Environment, Ports } from '../../ports/index.js';
import { monthOf, policyFor, TIERS } from '../../tiers.js';

const HISTORY_MONTHS = 6;

function lastMonths(now: number, count: number): string[] {
  const d = new Date(now);
  return Array.from({ length: count }, (_, i) => monthOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (count - 1 - i), 1)));
}

async function calls(ports: Ports<DurableUsage>, customerId: string, environment: Environment, month: string, current: boolean): Promise<number> {
  const durable = await ports.accounts.getUsage(customerId, environment, month);
  // The live counter knows the calls not flushed yet; it may be unreachable (fail open).
  const live = current ? await ports.limiter.monthCount(customerId, environment, month).catch(() => 0) : 0;
  return Math.max(durable, live);
}

/**
 * The current month day by day, from its first day to today: the durable days, and today's
 * share of what the live counter has that is not flushed yet, so the days add up to the month.
 */
async function daysOf(ports: Ports<DurableUsage>, customerId: string, month: string, now: number, totals: { live: number; test: number }) {
  const today = new Date(now).toISOString().slice(0, 10);
  const first = Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1);
  const dates = Array.from({ length: Number(today.slice(8, 10)) }, (_, i) => new Date(first + i * 86_400_000).toISOString().slice(0, 10));
  const byEnvironment = async (environment: Environment, total: number) => {
    const counts = new Map((await ports.accounts.getDailyUsage(customerId, environment, month)).map((d) => [d.day, d.count]));
    const flushed = [...counts.values()].reduce((a, b) => a + b, 0);
    counts.set(today, (counts.get(today) ?? 0) + Math.max(0, total - flushed));
    return counts;
  };
  const [live, test] = await Promise.all([byEnvironment('live', totals.live), byEnvironment('test', totals.test)]);
  return dates.map((date) => ({ date, live: live.get(date) ?? 0, test: test.get(date) ?? 0 }));
}

export const dashboardUsageRoute = route({
  method: 'GET',
  path: '/api/dashboard/usage',
  access: 'open',
  summary: 'Calls per month against the quota (live and test keys)',
  tags: ['dashboard'],
  responses: {
    200: { description: '{tier, quota_per_month, overage, month, months: [{month, live, test}], days: [{date, live, test}] (this month to today)}' },
  },
  errors: ['unauthorized'],
  async handler({ request, ports, now, config }: WithAccounts<DashboardState & CustomersAndKeys & DurableUsage>) {
    const customer = await sessionCustomer(request, ports, now, config);
    const current = monthOf(now);
    const months = await Promise.all(
      lastMonths(now, HISTORY_MONTHS).map(async (month) => ({
        month,
        live: await calls(ports, customer.id, 'live', month, month === current),
        test: await calls(ports, customer.id, 'test', month, month === current),
      })),
    );
    const days = await daysOf(ports, customer.id, current, now, months[months.length - 1] ?? { live: 0, test: 0 });
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
        days,
      },
      200,
      { 'cache-control': 'no-store' },
    );
  },
});
