/**
 * Usage jobs run by runJobs: overage of `bill` customers as Stripe meter events, and the
 * once-a-month contract review. Overage is reported as the growth of the month's excess
 * since the last confirmed report. The pending mark is written before the meter event is
 * sent and its identifier derives from it, so a crash between sending and confirming
 * resends the same identifier, which Stripe counts once.
 */
import type { Customer, DurableUsage, Environment, Ports, UsageJobs } from '../ports/index.js';
import { CONTRACT_REVIEW_CALLS, monthOf, policyFor, TIERS } from '../tiers.js';

/** The month's calls: the live counter, or the durable copy when the counter lost it (restart). */
async function monthCalls(ports: Ports<DurableUsage>, customerId: string, environment: Environment, month: string): Promise<number> {
  const [live, durable] = await Promise.all([
    ports.limiter.monthCount(customerId, environment, month).catch(() => 0),
    ports.accounts.getUsage(customerId, environment, month),
  ]);
  return Math.max(live, durable);
}

/** The current month, and the previous one so its last minutes are not lost at the turn. */
function monthsToReview(now: Date): string[] {
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return [monthOf(previous.getTime()), monthOf(now.getTime())];
}

export const overageIdentifier = (customerId: string, month: string, through: number) => `overage_${customerId}_${month}_${through}`;

export async function reportOverage(ports: Ports<UsageJobs & DurableUsage>, now: Date): Promise<number> {
  const billing = ports.billing;
  if (!billing) return 0;
  let reported = 0;
  for (const customer of await ports.accounts.listCustomersForUsageReview()) {
    if (TIERS[customer.tier].contract || customer.overage !== 'bill' || !customer.stripe_customer_id) continue;
    for (const month of monthsToReview(now)) {
      reported += await reportMonth(ports, customer, customer.stripe_customer_id, month, now);
    }
  }
  return reported;
}

async function reportMonth(ports: Ports<UsageJobs & DurableUsage>, customer: Customer, stripeCustomerId: string, month: string, now: Date): Promise<number> {
  const billing = ports.billing;
  if (!billing) return 0;
  const cursor = await ports.accounts.getOverageCursor(customer.id, month);
  let reported = cursor.reported;
  const send = async (through: number) => {
    await billing.reportOverage({ stripeCustomerId, value: through - reported, identifier: overageIdentifier(customer.id, month, through), timestamp: now });
    await ports.accounts.commitOverage(customer.id, month, through);
    ports.logger.log({ level: 'info', kind: 'billing.overage_reported', customer_id: customer.id, month, calls: through - reported, through });
    reported = through;
  };
  // A report begun by an earlier run that did not confirm: finish it with the same identifier.
  if (cursor.pending !== null && cursor.pending > reported) await send(cursor.pending);
  // A pending mark already covered (left by a version that did not clear it): clear it, or no claim would hold again.
  else if (cursor.pending !== null) await ports.accounts.commitOverage(customer.id, month, reported);

  const excess = (await monthCalls(ports, customer.id, 'live', month)) - policyFor(customer).quotaPerMonth;
  if (excess <= reported) return 0;
  // Another instance claimed this month's report since the cursor was read: it reports, this one does not.
  if (!(await ports.accounts.setOveragePending(customer.id, month, excess, reported))) return 0;
  const before = reported;
  await send(excess);
  return excess - before;
}

/**
 * The gate raises quota.contract_review at the crossing call; this catches a crossing the
 * gate did not see (limiter failing open). Both claim (customer, month) first: once a month.
 */
export async function reviewContracts(ports: Ports<UsageJobs & DurableUsage>, now: Date): Promise<void> {
  const month = monthOf(now.getTime());
  for (const customer of await ports.accounts.listCustomersForUsageReview()) {
    if (!TIERS[customer.tier].contract) continue;
    const calls = await monthCalls(ports, customer.id, 'live', month);
    if (calls <= CONTRACT_REVIEW_CALLS) continue;
    if (!(await ports.accounts.claimContractReview(customer.id, month))) continue;
    const detail = { customer_id: customer.id, environment: 'live', month, calls };
    ports.logger.log({ level: 'warn', kind: 'quota.contract_review', ...detail });
    ports.alarm.raise('quota.contract_review', detail);
  }
}
