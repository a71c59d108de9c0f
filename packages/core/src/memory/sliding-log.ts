/**
 * An exact sliding window: the times of the calls admitted in the last `windowMs`. Unlike a
 * weighted two-window estimate, steady traffic at exactly the limit always passes (spec,
 * Limits rule 2) and a burst never exceeds the limit in any window.
 */
export class SlidingLog {
  private times: number[] = [];

  constructor(private readonly windowMs: number) {}

  /** Drops calls at or before now − window; returns how many remain. */
  count(now: number): number {
    const cutoff = now - this.windowMs;
    let drop = 0;
    while (drop < this.times.length && (this.times[drop] as number) <= cutoff) drop++;
    if (drop > 0) this.times.splice(0, drop);
    return this.times.length;
  }

  add(now: number): void {
    this.times.push(now);
  }

  /** Epoch ms when the oldest counted call leaves the window (a slot frees); now + window when empty. */
  nextFree(now: number): number {
    const oldest = this.times[0];
    return oldest === undefined ? now + this.windowMs : oldest + this.windowMs;
  }

  get empty(): boolean {
    return this.times.length === 0;
  }
}
