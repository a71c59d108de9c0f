/**
 * `npm start` right after a stop (issue 30 item 15): while the previous process is still shutting
 * down — here it finishes a request whose body never ends, so its shutdown lasts until the test
 * lets it go — the new process waits for the data dir and says so, instead of exiting with
 * "in use by process N"; it starts once the old one has released the data dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../hosts/process-host.js';
import { embeddedEnvironment, ROOT, startEmbeddedHost, stopHost } from '../support/embedded-host.js';

async function until(what: string, done: () => boolean, child: ChildProcess, output: () => string): Promise<void> {
  for (let polls = 0; !done(); polls++) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ${what}: ${output()}`);
    if (polls > 600) throw new Error(`no ${what}: ${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a restart right after a stop', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-restart-'));
  const started: ChildProcess[] = [];
  afterAll(() => {
    for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits for the old process to finish shutting down, saying so, then starts', async () => {
    const port = await freePort();
    const first = await startEmbeddedHost(dataDir, port);
    started.push(first.child);
    const demoKey = /demo key:\s+(ck_test_\S+)/.exec(first.output())?.[1] as string;
    const firstExit = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)));

    // A request in flight that the graceful stop waits for: the server has its headers (it
    // answered 100 Continue), its body never comes until the socket is destroyed.
    const slow = connect(port, '127.0.0.1');
    let seen = '';
    slow.on('data', (d) => (seen += d));
    slow.on('error', () => undefined);
    slow.write(
      `POST /api/v1/masters/batch HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\nX-API-Key: ${demoKey}\r\n\r\n`,
    );
    await until('100 Continue', () => seen.includes('100 Continue'), first.child, first.output);

    first.child.kill('SIGTERM');
    // The stopping holder says so in its lock before anything closes.
    const lockFile = join(dataDir, 'pg.lock');
    await until('the lock to say stopping', () => existsSync(lockFile) && readFileSync(lockFile, 'utf8').includes('stopping'), first.child, first.output);
    const second = spawn(process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', 'hosts/node/src/main.ts'], {
      cwd: ROOT,
      env: embeddedEnvironment(dataDir, { PORT: String(port), LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(second);
    let out = '';
    second.stdout?.on('data', (d) => (out += d));
    second.stderr?.on('data', (d) => (out += d));
    await until(
      'the wait to be announced',
      () => out.includes('which is shutting down: waiting up to 15 s'),
      second,
      () => out,
    );
    expect(out).toContain(`held by process ${first.child.pid}`);

    slow.destroy(); // the old process's last request ends; it closes and releases the data dir
    expect(await firstExit).toBe(0);
    await until(
      'the new process to listen',
      () => out.includes('listening on'),
      second,
      () => out,
    );
    const health = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(health.status).toBe(200);
    expect(await stopHost(second)).toBe(0);
  }, 120_000);
});
