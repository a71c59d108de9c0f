/**
 * An exact sliding window: the times of the calls admitted in the last `windowMs`. Unlike a
 * weighted two-window estimate, steady traffic at exactly the limit always passes (spec,
 * Limits rule 2) and a burst never exceeds the limit in any window.
 *
 * Times are appended in order, so expired ones sit at the front: a head index skips them and
 * the array is compacted only now and then, keeping each call O(1) amortised.
 */
export class SlidingLog {
  private times: number[] = [];
  private head = 0;

  constructor(private readonly windowMs: number) {}

  /** Forgets calls at or before now − window; returns how many remain. */
  count(now: number): number {
    const cutoff = now - this.windowMs;
    const times = this.times;
    while (this.head < times.length && (times[this.head] as number) <= cutoff) this.head++;
    if (this.head > 1024 && this.head * 2 > times.length) {
      this.times = times.slice(this.head);
      this.head = 0;
    }
    return this.times.length - this.head;
  }

  add(now: number): void {
    this.times.push(now);
  }

  /** Epoch ms when the oldest counted call leaves the window (a slot frees); now + window when empty. */
  nextFree(now: number): number {
    const oldest = this.times[this.head];
    return oldest === undefined ? now + this.windowMs : oldest + this.windowMs;
  }
}
