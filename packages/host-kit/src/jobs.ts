/** runJobs once a minute for hosts with a timer (Node, Bun); Deno uses Deno.cron, Lambda a schedule event. */
import type { Logger, Service } from '@catalogue/core';

export const JOBS_INTERVAL_MS = 60_000;

export interface JobSchedule {
  stop(): void;
}

/** The clock and timer the schedule runs on: the process's by default, a test's fake otherwise. */
export interface JobTimers {
  now(): Date;
  setInterval(tick: () => void, ms: number): unknown;
  clearInterval(timer: unknown): void;
}

const SYSTEM_TIMERS: JobTimers = {
  now: () => new Date(),
  setInterval: (tick, ms) => setInterval(tick, ms),
  clearInterval: (timer) => clearInterval(timer as ReturnType<typeof setInterval>),
};

export function scheduleJobs(
  service: Pick<Service, 'runJobs'>,
  logger?: Logger,
  intervalMs: number = JOBS_INTERVAL_MS,
  timers: JobTimers = SYSTEM_TIMERS,
): JobSchedule {
  let running = false;
  const timer = timers.setInterval(() => {
    // One run at a time: a slow run (database hiccup) must not pile up behind itself.
    if (running) return;
    running = true;
    service
      .runJobs(timers.now())
      .catch((error: unknown) =>
        logger?.log({ level: 'error', kind: 'jobs.failed', job: 'all', error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  // A timer alone never keeps the process alive (Node, Bun).
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => timers.clearInterval(timer) };
}
