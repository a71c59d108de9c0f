/**
 * One process at a time on the embedded default's data dir (issue 13): PGlite is a database
 * inside its process, so the server (`npm start`) and `catalogue import` must never open the
 * same directory together. The holder writes its pid to `<dataDir>/pg.lock` (created
 * exclusively); a lock whose pid is no longer running is taken over.
 *
 * A holder that is shutting down says so in the lock (`<pid> stopping`, markStopping): a start
 * right after a stop then waits for it, up to STOPPING_WAIT_MS and saying so, instead of
 * refusing (issue 30 item 15). A holder that is not stopping is refused at once, as before.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How long a start waits for a holder that is shutting down (a host's close takes up to its 15 s grace). */
export const STOPPING_WAIT_MS = 15_000;
const POLL_MS = 100;

export class DataDirBusyError extends Error {
  override readonly name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    stillStopping = false,
  ) {
    super(
      stillStopping
        ? `the embedded database in ${join(dataDir, 'pg')} is still held by process ${pid}, which has been shutting down for ${STOPPING_WAIT_MS / 1000} s: wait for it to exit, or stop it`
        : `the embedded database in ${join(dataDir, 'pg')} is in use by process ${pid} (a running \`npm start\`?): stop it first, or set DATABASE_URL to use PostgreSQL`,
    );
  }
}

export interface DataDirLock {
  /** Removes the lock (if it is still this process's). */
  release(): void;
  /** Marks the lock as held by a process that is shutting down: the next start waits for it. */
  markStopping(): void;
}

export interface LockOptions {
  /** How long to wait for a holder that is shutting down (default STOPPING_WAIT_MS). */
  waitMs?: number;
  /** Told once when the wait begins (default: a line on stderr). */
  onWait?(message: string): void;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type Attempt = { taken: DataDirLock } | { holder: number; stopping: boolean } | null;

/** One try: the lock, or the live holder, or null (a stale lock was removed, or it was released meanwhile: try again). */
function tryLock(file: string): Attempt {
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
    const ours = () => {
      try {
        return readFileSync(file, 'utf8').split(/\s+/)[0] === String(process.pid);
      } catch {
        return false; // already gone
      }
    };
    return {
      taken: {
        release: () => {
          if (!ours()) return;
          try {
            unlinkSync(file);
          } catch {
            // Already gone.
          }
        },
        markStopping: () => {
          if (ours()) writeFileSync(file, `${process.pid} stopping\n`);
        },
      },
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch {
    return null; // released meanwhile
  }
  const [pidText, state] = content.trim().split(/\s+/);
  const holder = Number(pidText);
  if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder)) return { holder, stopping: state === 'stopping' };
  try {
    unlinkSync(file); // left by a process that is gone
  } catch {
    // Someone else took it over first; try again.
  }
  return null;
}

/**
 * Takes the data dir's lock. A running holder that is not stopping: DataDirBusyError at once.
 * A holder that is shutting down: waits for it (up to `waitMs`, telling `onWait` once), then
 * DataDirBusyError if it still holds the lock.
 */
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const file = join(dataDir, 'pg.lock');
  const waitMs = options.waitMs ?? STOPPING_WAIT_MS;
  let waitingSince: number | null = null;
  for (let stale = 0; stale < 3; ) {
    const attempt = tryLock(file);
    if (attempt === null) {
      stale++;
      continue;
    }
    if ('taken' in attempt) return attempt.taken;
    if (!attempt.stopping) throw new DataDirBusyError(dataDir, attempt.holder);
    if (waitingSince === null) {
      waitingSince = Date.now();
      const message = `the embedded database in ${join(dataDir, 'pg')} is held by process ${attempt.holder}, which is shutting down: waiting up to ${Math.round(waitMs / 1000)} s for it`;
      (options.onWait ?? ((m: string) => process.stderr.write(`${m}\n`)))(message);
    } else if (Date.now() - waitingSince >= waitMs) {
      throw new DataDirBusyError(dataDir, attempt.holder, true);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`cannot take the lock ${file}`);
}
