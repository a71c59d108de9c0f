/**
 * Accounts whose changes invalidate every instance's key cache (key-cache.ts,
 * docs/decisions.md §3). Each change the gate reads — a key revoked, rotated, suspended or
 * restored; a customer's status, tier or overage mode — moves the limiter's shared accounts
 * epoch on once it is committed and before the caller hears of it, so the next request on any
 * instance reads the store again.
 *
 * If the epoch cannot be moved (the limiter's store is away), this instance drops its own cache
 * at once, `auth.invalidation_failed` is logged and the alarm raised, and the bump is retried
 * every second for a minute; other instances' entries expire after the cache's maximum age
 * (60 s), the bound on staleness under that double fault.
 */
import type { Accounts, Alarm, Limiter, Logger } from '../ports/index.js';
import type { KeyCache } from './key-cache.js';

const RETRY_MS = 1_000;
const RETRIES = 60;

export function invalidatingAccounts(
  accounts: Accounts,
  limiter: Limiter & { bumpAuthEpoch(): Promise<void> },
  cache: KeyCache,
  logger: Logger,
  alarm: Alarm,
): Accounts {
  let retrying: ReturnType<typeof setTimeout> | null = null;

  const retry = (attempt: number) => {
    retrying = setTimeout(() => {
      retrying = null;
      limiter.bumpAuthEpoch().then(
        () => logger.log({ level: 'info', kind: 'auth.invalidation_recovered', attempts: attempt }),
        () => {
          cache.clear();
          if (attempt < RETRIES) retry(attempt + 1);
        },
      );
    }, RETRY_MS);
    (retrying as { unref?: () => void }).unref?.();
  };

  async function bump(): Promise<void> {
    try {
      await limiter.bumpAuthEpoch();
    } catch (error) {
      cache.clear();
      const detail = { error: error instanceof Error ? error.message : String(error) };
      logger.log({ level: 'error', kind: 'auth.invalidation_failed', ...detail });
      alarm.raise('auth.invalidation_failed', detail);
      if (retrying === null) retry(1);
    }
  }

  /** Runs a change, then moves the epoch on when `changed` says the change touched what the gate reads. */
  const after =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>, changed: (result: R) => boolean) =>
    async (...args: A): Promise<R> => {
      const result = await method.apply(accounts, args);
      if (changed(result)) await bump();
      return result;
    };

  return {
    ...accounts,
    // The spread keeps every method of the port; the ones below replace theirs.
    applyBillingChange: after(accounts.applyBillingChange, (outcome) => outcome === 'applied'),
    setOverage: after(accounts.setOverage, (customer) => customer !== null),
    rotateKey: after(accounts.rotateKey, (rotated) => rotated !== null),
    revokeKey: after(accounts.revokeKey, (revoked) => revoked !== null),
    suspendExpiredGrace: after(accounts.suspendExpiredGrace, (suspended) => suspended > 0),
  };
}
