/** GET /api/v1/usage: this key's month against the quota; needs a key but counts toward nothing. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { named } from '../../schemas/named.js';
import { monthOf, nextMonthStart } from '../../tiers.js';

export const UsageSchema = named(
  'Usage',
  v.object({
    customer_id: v.string(),
    environment: v.picklist(['live', 'test']),
    tier: v.string(),
    month: v.string(),
    calls: v.number(),
    quota: v.number(),
    remaining: v.number(),
    overage: v.picklist(['block', 'bill', 'contract']),
    overage_calls: v.number(),
    resets_at: v.string(),
    limits: v.object({ burst_per_minute: v.number(), concurrency: v.number(), batch_max: v.number() }),
  }),
);

export const usageRoute = route({
  method: 'GET',
  path: '/api/v1/usage',
  access: 'key-uncounted',
  summary: 'Current-month usage against the monthly quota (does not count as a call)',
  tags: ['account'],
  responses: { 200: { description: 'Usage of the calendar month (UTC) for this key’s customer and environment.', schema: UsageSchema } },
  async handler({ principal, ports, now }) {
    const { customer, key, policy } = principal!;
    const month = monthOf(now);
    const calls = await ports.limiter.monthCount(customer.id, key.environment, month);
    return json({
      customer_id: customer.id,
      environment: key.environment,
      tier: customer.tier,
      month,
      calls,
      quota: policy.quotaPerMonth,
      remaining: Math.max(0, policy.quotaPerMonth - calls),
      overage: policy.quotaMode,
      overage_calls: Math.max(0, calls - policy.quotaPerMonth),
      resets_at: new Date(nextMonthStart(now)).toISOString(),
      limits: { burst_per_minute: policy.burstPerMinute, concurrency: policy.concurrency, batch_max: policy.batchMax },
    });
  },
});
