/**
 * The scheduler of the hosts with a timer (jobs.ts), on an injected clock and timer: runJobs
 * once per interval with the clock's time, one run at a time, a failed run logged and the next
 * one made, nothing after stop(), and a timer that never keeps the process alive.
 */
import type { LogRecord } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { JOBS_INTERVAL_MS, type JobTimers, scheduleJobs } from './jobs.js';

/** A fake clock with one interval timer: `advance` fires the ticks that fall due, in order. */
function fakeTimers(start = Date.parse('2026-03-10T10:00:00Z')) {
  let now = start;
  const intervals = new Map<number, { tick: () => void; ms: number; next: number; unrefed: boolean }>();
  let ids = 0;
  const timers: JobTimers = {
    now: () => new Date(now),
    setInterval(tick, ms) {
      const id = ++ids;
      const entry = { tick, ms, next: now + ms, unrefed: false };
      intervals.set(id, entry);
      const unref = () => {
        entry.unrefed = true;
      };
      return { id, unref };
    },
    clearInterval(timer) {
      intervals.delete((timer as { id: number }).id);
    },
  };
  return {
    timers,
    intervals,
    /** Moves the clock by `ms`, firing each tick due on the way (and letting its promises settle). */
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...intervals.values()].filter((entry) => entry.next <= until).sort((x, y) => x.next - y.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.tick();
        for (let i = 0; i < 5; i++) await Promise.resolve();
      }
      now = until;
    },
  };
}

/** A service whose runs are settled by the test, each recording the time it was given. */
function recordingService() {
  const runs: Array<{ at: string; settle: (error?: Error) => void }> = [];
  return {
    runs,
    runJobs(now: Date): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        runs.push({ at: now.toISOString(), settle: (error) => (error ? reject(error) : resolve()) });
      });
    },
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('scheduleJobs', () => {
  it('runs the jobs once a minute with the clock’s time, none before the first minute', async () => {
    const clock = fakeTimers();
    const service = recordingService();
    scheduleJobs(service, undefined, undefined, clock.timers);
    await clock.advance(JOBS_INTERVAL_MS - 1);
    expect(service.runs).toEqual([]);
    await clock.advance(1);
    expect(service.runs.map((run) => run.at)).toEqual(['2026-03-10T10:01:00.000Z']);
    service.runs[0]?.settle();
    await settle();
    await clock.advance(2 * JOBS_INTERVAL_MS);
    expect(service.runs.map((run) => run.at)).toEqual(['2026-03-10T10:01:00.000Z', '2026-03-10T10:02:00.000Z']);
  });

  it('makes one run at a time: ticks while a run is slow are skipped, the next tick after it runs', async () => {
    const clock = fakeTimers();
    const service = recordingService();
    scheduleJobs(service, undefined, 1_000, clock.timers);
    await clock.advance(1_000);
    expect(service.runs).toHaveLength(1);
    // The first run takes 3.5 ticks: the ticks at 2, 3 and 4 s find it running and do nothing.
    await clock.advance(3_500);
    expect(service.runs).toHaveLength(1);
    service.runs[0]?.settle();
    await settle();
    await clock.advance(500);
    expect(service.runs.map((run) => run.at)).toEqual(['2026-03-10T10:00:01.000Z', '2026-03-10T10:00:05.000Z']);
  });

  it('logs a failed run as jobs.failed and runs again at the next tick', async () => {
    const clock = fakeTimers();
    const service = recordingService();
    const logged: LogRecord[] = [];
    scheduleJobs(service, { log: (record) => logged.push(record) }, 1_000, clock.timers);
    await clock.advance(1_000);
    service.runs[0]?.settle(new Error('database hiccup'));
    await settle();
    expect(logged).toEqual([{ level: 'error', kind: 'jobs.failed', job: 'all', error: 'database hiccup' }]);
    await clock.advance(1_000);
    expect(service.runs).toHaveLength(2);
  });

  it('stop() ends the schedule, and the timer never keeps the process alive', async () => {
    const clock = fakeTimers();
    const service = recordingService();
    const schedule = scheduleJobs(service, undefined, 1_000, clock.timers);
    expect([...clock.intervals.values()].map((entry) => entry.unrefed)).toEqual([true]);
    await clock.advance(1_000);
    service.runs[0]?.settle();
    await settle();
    schedule.stop();
    expect(clock.intervals.size).toBe(0);
    await clock.advance(10_000);
    expect(service.runs).toHaveLength(1);
  });
});
