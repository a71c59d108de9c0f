/**
 * `npx catalogue import …` on the embedded default (issue 13): with no DATABASE_URL it loads
 * into the PGlite data dir that `npm start` serves, and says so; while the server holds that
 * data dir it refuses, naming the server's pid; the server then serves what was imported.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'packages/importer/bin/catalogue.mjs');

function environment(dataDir: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, CATALOGUE_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  delete env.DATABASE_URL;
  delete env.ADMIN_TOKEN;
  delete env.CATALOGUE_STORAGE;
  return env;
}

function catalogue(dataDir: string, args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: tmpdir(), env: environment(dataDir), encoding: 'utf8', timeout: 180_000 });
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function start(dataDir: string, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', 'hosts/node/src/main.ts'], {
    cwd: ROOT,
    env: environment(dataDir, { PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const deadline = Date.now() + 120_000;
  while (!out.includes('listening on')) {
    if (child.exitCode !== null) throw new Error(`host exited: ${out}`);
    if (Date.now() > deadline) throw new Error(`host did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => out };
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill('SIGTERM');
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('catalogue import on the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-embedded-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('imports into the data dir npm start serves, and refuses while the server holds it', async () => {
    const masters = join(dataDir, 'masters.xml');
    writeFileSync(
      masters,
      '<masters>\n<master id="7"><main_release>70</main_release><artists><artist><id>1</id><name>Imported Artist</name></artist></artists>' +
        '<genres><genre>Electronic</genre></genres><styles><style>Techno</style></styles><year>1999</year><title>Embedded Import</title></master>\n</masters>\n',
    );
    const imported = catalogue(dataDir, ['import', 'discogs', masters]);
    expect(imported.stderr).toContain(`catalogue: no DATABASE_URL: using the embedded database in ${join(dataDir, 'pg')}`);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('imported masters 1');

    const port = await freePort();
    const server = await start(dataDir, port);
    try {
      const demo = /demo key:\s+(ck_test_\S+)/.exec(server.output())?.[1] as string;
      const master = await fetch(`http://127.0.0.1:${port}/api/v1/masters/7`, { headers: { 'x-api-key': demo } });
      expect(await master.json()).toMatchObject({ master_id: 7, title: 'Embedded Import', year: 1999 });

      const refused = catalogue(dataDir, ['import', 'discogs', masters]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`is in use by process ${server.child.pid}`);
      expect(refused.stderr).toContain('stop it first, or set DATABASE_URL');
    } finally {
      expect(await stop(server.child)).toBe(0);
    }
    // Released with the server: importing works again.
    expect(catalogue(dataDir, ['import', 'discogs', masters]).status).toBe(0);
  }, 300_000);
});
