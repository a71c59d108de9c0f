/**
 * What the Redis limiter's parts share (redis-limiter.ts composes them): the store's commands
 * under their time limits, durable usage, key names, the usage ledger, months and logging.
 */
import type { Clock, DurableUsage, Environment, Logger } from '@catalogue/core';
import { monthOf, nextMonthStart } from '@catalogue/core';
import type { LimiterCommands } from './commands.js';
import type { LimiterKeys } from './keys.js';
import type { UsageLedger } from './usage-ledger.js';
import type { TimeLimit } from './with-timeout.js';

/** Month counters outlive their month so late replays and usage reads still find them. */
const MONTH_COUNTER_GRACE_MS = 35 * 24 * 3_600_000;

export interface Script<T> {
  exec(keys: string[], args: string[]): Promise<T>;
}

export interface LimiterContext {
  readonly redis: LimiterCommands;
  /** Durable usage (the Accounts slice): seeds, shared flushes, and the close without a store. */
  readonly accounts: DurableUsage;
  readonly clock: Clock;
  readonly keys: LimiterKeys;
  readonly ledger: UsageLedger;
  /** The admit path's limit (docs/decisions.md §8: 50 ms). */
  readonly inTime: TimeLimit;
  /** Background store calls: release, replay, flush. */
  readonly inBackgroundTime: TimeLimit;
  newId(): string;
  script<T>(lua: string): Script<T>;
  /** The month of `now`, worked out once a month rather than per request. */
  monthAt(now: number): string;
  /** How long a month counter (or a set of its month) lives from `now`. */
  monthTtlMs(month: string, now: number): number;
  /** Durable usage of a month counter that is missing, one read for all who need it at once. */
  durableUsage(monthKey: string, customerId: string, environment: Environment, month: string): Promise<number>;
  warn(kind: string, fields: Record<string, unknown>, error?: unknown): void;
  readonly logger: Logger | undefined;
}

export interface ContextOptions {
  redis: LimiterCommands;
  accounts: DurableUsage;
  clock: Clock;
  keys: LimiterKeys;
  ledger: UsageLedger;
  inTime: TimeLimit;
  inBackgroundTime: TimeLimit;
  newId(): string;
  logger: Logger | undefined;
}

export function limiterContext(options: ContextOptions): LimiterContext {
  const { redis, accounts, logger } = options;

  let monthStart = 0;
  let monthEnd = 0;
  let monthName = '';
  const monthAt = (now: number) => {
    if (now < monthStart || now >= monthEnd) {
      monthName = monthOf(now);
      monthStart = Date.parse(`${monthName}-01T00:00:00Z`);
      monthEnd = nextMonthStart(now);
    }
    return monthName;
  };

  // A spike on a counter that is missing answers `seed` to every admit of it at once: they share
  // one durable read (issue 27), not one PostgreSQL query each against the pool's backstop. The
  // read takes the counter of the layout before the hash tags (keys.ts) when that holds more:
  // calls the old instances had not flushed yet (CHANGELOG, the key migration).
  const seedReads = new Map<string, Promise<number>>();
  const legacyCount = (customerId: string, environment: Environment, month: string): Promise<number> =>
    options.inTime.wrap(redis.hget(options.keys.legacyMonth(customerId, environment, month), 'n')).then(
      (n) => (n === null || n === undefined ? 0 : Number(n)),
      () => 0,
    );

  return {
    ...options,
    script: <T>(lua: string) => ({ exec: (keys: string[], args: string[]) => redis.evalScript<T>(lua, keys, args) }),
    monthAt,
    // A relative TTL (Redis' own clock may disagree with the injected one): the rest of the
    // month as the caller sees it, plus the grace. The admit's month is the current one; a replay
    // may name an earlier month.
    monthTtlMs(month, now) {
      const end = month === monthName ? monthEnd : nextMonthStart(Date.parse(`${month}-01T00:00:00Z`));
      return Math.max(0, end - now) + MONTH_COUNTER_GRACE_MS;
    },
    durableUsage(monthKey, customerId, environment, month) {
      let read = seedReads.get(monthKey);
      if (read === undefined) {
        read = Promise.all([accounts.getUsage(customerId, environment, month), legacyCount(customerId, environment, month)])
          .then(([durable, legacy]) => Math.max(durable, legacy))
          .finally(() => seedReads.delete(monthKey));
        seedReads.set(monthKey, read);
      }
      return read;
    },
    warn(kind, fields, error) {
      logger?.log({
        level: 'warn',
        kind,
        ...fields,
        ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
      });
    },
  };
}
