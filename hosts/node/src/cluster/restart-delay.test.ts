import { describe, expect, it } from 'vitest';
import { MAX_RESTART_DELAY_MS, quickDeathsAfter, restartDelayMs, STABLE_WORKER_MS } from './restart-delay.js';

describe('restart back-off of the Node host’s workers', () => {
  it('restarts a worker that had served at once', () => {
    expect(quickDeathsAfter(5, STABLE_WORKER_MS)).toBe(0);
    expect(restartDelayMs(0)).toBe(0);
  });

  it('doubles while replacements die young, up to 30 s', () => {
    let deaths = 0;
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      deaths = quickDeathsAfter(deaths, STABLE_WORKER_MS - 1);
      delays.push(restartDelayMs(deaths));
    }
    expect(delays.slice(0, 6)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(delays.slice(6).every((delay) => delay === MAX_RESTART_DELAY_MS)).toBe(true);
  });
});
