/** runJobs once a minute for hosts with a timer (Node, Bun); Deno uses Deno.cron, Lambda a schedule event. */
import type { Logger, Service } from '@catalogue/core';

export const JOBS_INTERVAL_MS = 60_000;

export interface JobSchedule {
  stop(): void;
}

export function scheduleJobs(service: Pick<Service, 'runJobs'>, logger?: Logger, intervalMs: number = JOBS_INTERVAL_MS): JobSchedule {
  let running = false;
  const timer = setInterval(() => {
    // One run at a time: a slow run (database hiccup) must not pile up behind itself.
    if (running) return;
    running = true;
    service
      .runJobs(new Date())
      .catch((error: unknown) =>
        logger?.log({ level: 'error', kind: 'jobs.failed', job: 'all', error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  // A timer alone never keeps the process alive (Node, Bun).
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer) };
}
