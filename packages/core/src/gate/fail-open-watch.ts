/**
 * Honest readiness while key limits fail open (docs/decisions.md §8, "Health and readiness";
 * issue 27): a limit store that answers PING but refuses every decision (a Redis refusing
 * writes with NOREPLICAS, a cluster answering CROSSSLOT) lets every request through unmetered
 * while a PING alone says ready. The key gate tells this watch of each key-limit decision the limiter
 * made and each one that failed open; `/readyz`'s `limits` check asks it, and while the rule
 * below holds it raises the alarm `ratelimit.failing_open` (from either side).
 *
 * The rule: not ready while key-limit decisions have failed open for at least
 * FAIL_OPEN_NOT_READY_MS with no decision made in between — a streak of fail-opens, each less
 * than that after the one before, the first at least that long ago and the last less than
 * that ago. One decision ends the streak (ready at once). So does a quiet spell of that length
 * (a fail-open after it starts a new streak): a readiness that only traffic could clear would
 * keep an instance the load balancer stopped sending traffic to out for good.
 *
 * Only the key gate (counted calls and usage's peek) feeds it: that is what meters customers.
 * The per-IP windows of the public routes and beacons are an abuse guard (§2) and stay out.
 */
import type { Alarm, Clock, Probe } from '../ports/index.js';

/** How long key-limit decisions may fail open, none made meanwhile, before the instance is not ready. */
export const FAIL_OPEN_NOT_READY_MS = 5_000;

/** What `/readyz` says while the rule holds: no URL, no credential, no error text of the store. */
export const FAILING_OPEN_MESSAGE = `key-limit decisions fail open: none has succeeded for ${FAIL_OPEN_NOT_READY_MS / 1000} s or more`;

export class FailOpenWatch {
  /** When the current streak of fail-opens began (null: a decision was made since the last one). */
  #since: number | null = null;
  #last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly clock: Clock,
    /** The service's alarm (throttled to once a minute per kind): `ratelimit.failing_open`. */
    private readonly alarm: Alarm,
  ) {}

  /** The limiter decided (admitted, refused, or answered stale): the streak is over. */
  decided(): void {
    this.#since = null;
  }

  /** A key-limit decision failed open; alarms when the streak has now lasted the window. */
  failedOpen(): void {
    const now = this.clock.now();
    if (this.#since === null || now - this.#last >= FAIL_OPEN_NOT_READY_MS) this.#since = now;
    this.#last = Math.max(this.#last, now);
    if (this.failingOpen()) this.#raise();
  }

  /** The rule above, at the clock's now. */
  failingOpen(): boolean {
    const now = this.clock.now();
    return this.#since !== null && now - this.#last < FAIL_OPEN_NOT_READY_MS && now - this.#since >= FAIL_OPEN_NOT_READY_MS;
  }

  /** /readyz's part: rejects (and alarms) while the rule holds. */
  check(): void {
    if (!this.failingOpen()) return;
    this.#raise();
    throw new Error(FAILING_OPEN_MESSAGE);
  }

  #raise(): void {
    this.alarm.raise('ratelimit.failing_open', { since: new Date(this.#since ?? 0).toISOString(), not_ready_after_ms: FAIL_OPEN_NOT_READY_MS });
  }
}

/**
 * The probes with one `limits` check that also asks `watch`: the limit store's own check (its
 * PING) runs first, since "unreachable" says more than "failing open" when both hold; without
 * one, the watch is the whole `limits` check.
 */
export function withFailOpenCheck(probes: readonly Probe[], watch: FailOpenWatch): Probe[] {
  const store = probes.find((probe) => probe.name === 'limits');
  const limits: Probe = {
    name: 'limits',
    async check(options) {
      await store?.check(options);
      watch.check();
    },
  };
  return store ? probes.map((probe) => (probe === store ? limits : probe)) : [...probes, limits];
}
