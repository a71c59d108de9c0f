/**
 * How long the Node host's primary waits before it forks a worker again in place of one that
 * died (docs/hosts.md, "Worker processes"): at once after a worker that had served a while, then
 * doubling from half a second to 30 s while replacements keep dying young, so a crash loop (a
 * database that refuses every start, a bad deploy) forks a worker every 30 s rather than spinning
 * the cores and flooding the log.
 */

/** A worker that lived this long had served: its death starts the back-off over. */
export const STABLE_WORKER_MS = 10_000;
const FIRST_DELAY_MS = 500;
export const MAX_RESTART_DELAY_MS = 30_000;

/** Consecutive deaths of a slot's workers, each within STABLE_WORKER_MS of its fork. */
export function quickDeathsAfter(previous: number, livedMs: number): number {
  return livedMs < STABLE_WORKER_MS ? previous + 1 : 0;
}

/** The wait before the next fork, after `quickDeaths` young deaths in a row (0: the worker had served). */
export function restartDelayMs(quickDeaths: number): number {
  if (quickDeaths <= 0) return 0;
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_DELAY_MS * 2 ** (quickDeaths - 1));
}
