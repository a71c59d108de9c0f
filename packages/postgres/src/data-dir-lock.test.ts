/**
 * The data-dir lock against a holder in another process (issue 30 item 15): a holder that is
 * shutting down is waited for (and the wait is announced) instead of refused; a holder that is
 * not stopping is refused at once; one that stays "stopping" past the wait is refused then.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusyError, lockDataDir } from './data-dir-lock.js';

const LOCK_MODULE = join(import.meta.dirname, 'data-dir-lock.ts');

/** A process that takes the lock, then obeys `stopping` / `release` lines on stdin. */
async function holder(dataDir: string): Promise<{ child: ChildProcess; say(line: string): Promise<void> }> {
  const script = `
    const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)});
    const lock = await lockDataDir(${JSON.stringify(dataDir)});
    console.log('locked');
    let buffered = '';
    process.stdin.on('data', (chunk) => {
      buffered += chunk;
      for (;;) {
        const end = buffered.indexOf('\\n');
        if (end < 0) break;
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line === 'stopping') lock.markStopping();
        if (line === 'release') { lock.release(); console.log('released'); process.exit(0); }
        console.log('ok ' + line);
      }
    });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const waiters: Array<() => void> = [];
  child.stdout?.on('data', (d) => {
    out += d;
    for (const w of waiters.splice(0)) w();
  });
  const seen = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => (out.includes(text) ? resolve() : waiters.push(check));
      check();
    });
  await seen('locked');
  return {
    child,
    say: async (line) => {
      child.stdin?.write(`${line}\n`);
      await seen(line === 'release' ? 'released' : `ok ${line}`);
    },
  };
}

let dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'catalogue-lock-'));
  dirs.push(dir);
  return dir;
};

describe('the data-dir lock', () => {
  it('refuses at once while the holder runs and is not stopping', async () => {
    const dir = newDir();
    const h = await holder(dir);
    children.push(h.child);
    const waits: string[] = [];
    await expect(lockDataDir(dir, { onWait: (m) => waits.push(m) })).rejects.toThrow(`in use by process ${h.child.pid}`);
    expect(waits).toEqual([]);
  });

  it('waits, saying so, for a holder that is shutting down, and takes the lock once it is released', async () => {
    const dir = newDir();
    const h = await holder(dir);
    children.push(h.child);
    await h.say('stopping');
    const waits: string[] = [];
    let announced!: () => void;
    const announcedWait = new Promise<void>((resolve) => (announced = resolve));
    const taking = lockDataDir(dir, {
      onWait: (m) => {
        waits.push(m);
        announced();
      },
    });
    await announcedWait;
    expect(waits).toEqual([expect.stringContaining(`held by process ${h.child.pid}, which is shutting down: waiting up to 15 s`)]);
    await h.say('release');
    const lock = await taking;
    lock.release();
  });

  it('refuses a holder that is still stopping when the wait is over', async () => {
    const dir = newDir();
    const h = await holder(dir);
    children.push(h.child);
    await h.say('stopping');
    const error = await lockDataDir(dir, { waitMs: 300, onWait: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirBusyError);
    expect((error as Error).message).toContain(`still held by process ${h.child.pid}, which has been shutting down`);
  });
});
