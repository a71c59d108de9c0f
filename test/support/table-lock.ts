/**
 * A table held in ACCESS EXCLUSIVE mode from a session of its own, until `release()`: the
 * service's queries on it wait, which the fault tests use to have queries in flight on purpose.
 */
import postgres from 'postgres';

export interface TableLock {
  /** Ends the lock's transaction and its session (once, however often it is called). */
  release(): Promise<void>;
}

/** Resolves once the lock is held. */
export async function lockTable(databaseUrl: string, table: string): Promise<TableLock> {
  const locker = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  let unlock = () => {};
  const unlocked = new Promise<void>((resolve) => {
    unlock = resolve;
  });
  let held = () => {};
  const isHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  const transaction = locker.begin(async (tx) => {
    await tx.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    held();
    await unlocked;
  });
  await Promise.race([isHeld, transaction]);
  let released: Promise<void> | null = null;
  return {
    release() {
      released ??= (async () => {
        unlock();
        await transaction.catch(() => undefined);
        await locker.end({ timeout: 5 });
      })();
      return released;
    },
  };
}
