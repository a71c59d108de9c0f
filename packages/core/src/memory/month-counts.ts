/**
 * The in-process limiter's monthly counts, optionally backed by durable usage (the Accounts
 * port). Usage is billing data (docs/decisions.md §8): on a database without Redis each instance
 * counts in memory, and without a durable backing a restart reset the month and no instance
 * ever wrote `usage_months` (docs/decisions.md §8). With one:
 * - a month's count is seeded from durable usage on its first use in this process;
 * - `flush()` (runJobs, every minute, and close() at shutdown) adds what this instance
 *   admitted since the last flush to durable usage, then re-reads it, so instances sharing a
 *   database see each other's calls within a minute (limits are exact only with Redis);
 * - a failed seed or flush loses nothing: calls keep counting locally and the next flush
 *   writes them.
 */
import type { DurableUsage, Environment, Logger } from '../ports/index.js';

/** The part of durable usage (the Accounts slice) the month counts read and write. */
export type DurableMonths = Pick<DurableUsage, 'addUsage' | 'getUsage'>;

export interface MonthState {
  customerId: string;
  environment: Environment;
  month: string;
  /** Calls in the month as this instance knows them: durable usage + unflushed. */
  count: number;
  /** Admitted here, not yet in durable usage. */
  unflushed: number;
  /** Seeded from durable usage (or tried: a failed seed is retried by the next flush). */
  seeded: boolean;
  /** The seed failed: the next flush re-reads durable usage even with nothing to add. */
  stale: boolean;
  /** Counted since the last flush: its count is refreshed from durable usage at the next one. */
  touched: boolean;
  seeding: Promise<void> | null;
}

export class MonthCounts {
  readonly #states = new Map<string, MonthState>();
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly durable: DurableMonths | null,
    private readonly logger: Logger | null,
    /** Called when a finished month's state is dropped, so its holder drops it too. */
    private readonly onForget?: (state: MonthState) => void,
  ) {}

  /** A month's state, registered for flushing; the limiter keeps it beside its customer's other counters. */
  create(customerId: string, environment: Environment, month: string): MonthState {
    const state: MonthState = { customerId, environment, month, count: 0, unflushed: 0, seeded: !this.durable, stale: false, touched: false, seeding: null };
    this.#states.set(`${customerId}\u0000${environment}\u0000${month}`, state);
    return state;
  }

  /**
   * The month's count as durable usage has it now plus what this instance has not flushed:
   * what /usage answers, so every instance agrees as of the last flush of each. Also refreshes
   * the count decisions use. Without a durable backing (or when the read fails): the local count.
   */
  async fresh(state: MonthState): Promise<number> {
    if (!this.durable) return state.count;
    try {
      const base = await this.durable.getUsage(state.customerId, state.environment, state.month);
      state.count = base + state.unflushed;
      state.seeded = true;
      state.stale = false;
    } catch (error) {
      this.#warn('usage.read_failed', state, error);
    }
    return state.count;
  }

  /** Seeds a state from durable usage (once; concurrent callers share the read). */
  seed(state: MonthState): Promise<void> {
    state.seeding ??= this.#seed(state);
    return state.seeding;
  }

  add(state: MonthState): void {
    state.count++;
    state.unflushed++;
    state.touched = true;
  }

  /** Writes unflushed counts to durable usage and refreshes the counts in use. One flush at a time. */
  flush(currentMonth: string): Promise<void> {
    const run = this.#flushing.then(() => this.#flushAll(currentMonth));
    this.#flushing = run.catch(() => {});
    return run;
  }

  async #seed(state: MonthState): Promise<void> {
    try {
      const base = await (this.durable as DurableMonths).getUsage(state.customerId, state.environment, state.month);
      state.count = base + state.unflushed;
    } catch (error) {
      state.stale = true;
      this.#warn('usage.seed_failed', state, error);
    } finally {
      state.seeded = true;
      state.seeding = null;
    }
  }

  async #flushAll(currentMonth: string): Promise<void> {
    if (!this.durable) return;
    for (const [key, state] of this.#states) {
      const delta = state.unflushed;
      try {
        if (delta > 0) {
          await this.durable.addUsage(state.customerId, state.environment, state.month, delta);
          state.unflushed -= delta;
        }
        if (state.touched || state.stale) {
          state.touched = false;
          const base = await this.durable.getUsage(state.customerId, state.environment, state.month);
          // Calls admitted while the read was under way are in `unflushed`, not yet in `base`.
          state.count = base + state.unflushed;
          state.stale = false;
        }
      } catch (error) {
        this.#warn('usage.flush_failed', state, error);
        continue;
      }
      // A past month with nothing left to write is done; its count is durable.
      if (state.month < currentMonth && state.unflushed === 0) {
        this.#states.delete(key);
        this.onForget?.(state);
      }
    }
  }

  #warn(kind: string, state: MonthState, error: unknown): void {
    this.logger?.log({
      level: 'warn',
      kind,
      customer_id: state.customerId,
      environment: state.environment,
      month: state.month,
      unflushed: state.unflushed,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
