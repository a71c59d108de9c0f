/** runJobs(now): the one periodic entry point every host schedules (once a minute). */
import { GRACE_MS } from './gate/authenticate.js';
import type { Ports } from './service-ports.js';

export async function runJobs(ports: Ports, now: Date): Promise<void> {
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['grace_expiry', () => ports.accounts.suspendExpiredGrace(now, GRACE_MS)],
    ['limiter', async () => ports.limiter.runJobs?.(now.getTime())],
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
