import type { Clock } from '../ports/index.js';

/** A clock tests move by hand: window edges, month rollover and lease expiry become exact. */
export interface ManualClock extends Clock {
  set(epochMs: number | Date | string): void;
  advance(ms: number): void;
}

export function createManualClock(start: number | Date | string = '2026-01-15T12:00:00Z'): ManualClock {
  let current = new Date(start).getTime();
  return {
    now: () => current,
    set(value) {
      current = new Date(value).getTime();
    },
    advance(ms) {
      current += ms;
    },
  };
}
