/**
 * One process at a time on the embedded default's data dir (issue 13): PGlite is a database
 * inside its process, so the server (`npm start`) and `catalogue import` must never open the
 * same directory together. The holder writes its pid to `<dataDir>/pg.lock` (created
 * exclusively); a lock whose pid is no longer running is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirBusyError extends Error {
  override readonly name = 'DataDirBusyError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${join(dataDir, 'pg')} is in use by process ${pid} (a running \`npm start\`?): stop it first, or set DATABASE_URL to use PostgreSQL`,
    );
  }
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

/** Takes the data dir's lock or throws DataDirBusyError; returns its release. */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'pg.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // released meanwhile
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder)) throw new DataDirBusyError(dataDir, holder);
    try {
      unlinkSync(file); // left by a process that is gone
    } catch {
      // Someone else took it over first; try again.
    }
  }
  throw new Error(`cannot take the lock ${file}`);
}
