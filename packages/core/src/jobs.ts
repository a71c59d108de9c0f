/** runJobs(now): the one periodic entry point every host schedules (once a minute). */
import { processOutbox } from './billing/outbox.js';
import { reportOverage, reviewContracts } from './billing/overage.js';
import type { ResolvedConfig } from './config.js';
import { GRACE_MS } from './gate/authenticate.js';
import type { BillingState, DashboardState, DurableUsage, MailOutbox, Ports, UsageJobs } from './ports/index.js';

/** Grace expiry (billing state), the outbox, overage and contract review (usage), the dashboard's expired rows. */
export type JobAccounts = BillingState & MailOutbox & UsageJobs & DurableUsage & DashboardState;

export async function runJobs(ports: Ports<JobAccounts>, now: Date, config?: Pick<ResolvedConfig, 'secretKey'>): Promise<void> {
  const secret = config?.secretKey ?? null;
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['grace_expiry', () => ports.accounts.suspendExpiredGrace(now, GRACE_MS)],
    ['limiter', async () => ports.limiter.runJobs?.(now.getTime())],
    // Sealed outbox rows open only with SECRET_KEY; without it nothing was sealed either.
    ['mail_outbox', async () => secret && processOutbox(ports, secret, now)],
    ['overage', () => reportOverage(ports, now)],
    ['contract_review', () => reviewContracts(ports, now)],
    ['purge_expired', () => ports.accounts.purgeExpired(now)],
  ];
  // Each step runs even when another fails: a stuck outbox must not stop usage persistence.
  for (const [name, step] of steps) {
    try {
      await step();
    } catch (error) {
      ports.logger.log({ level: 'error', kind: 'jobs.failed', job: name, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
