/**
 * `npx catalogue import …` on the embedded default (issue 13): with no DATABASE_URL it loads
 * into the PGlite data dir that `npm start` serves, and says so; while the server holds that
 * data dir it refuses, naming the server's pid; the server then serves what was imported.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../hosts/process-host.js';
import { embeddedEnvironment, ROOT, startEmbeddedHost, stopHost } from '../support/embedded-host.js';

const BIN = join(ROOT, 'packages/importer/bin/catalogue.mjs');

function catalogue(dataDir: string, args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: tmpdir(), env: embeddedEnvironment(dataDir), encoding: 'utf8', timeout: 180_000 });
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
    const server = await startEmbeddedHost(dataDir, port);
    try {
      const demo = /demo key:\s+(ck_test_\S+)/.exec(server.output())?.[1] as string;
      const master = await fetch(`http://127.0.0.1:${port}/api/v1/masters/7`, { headers: { 'x-api-key': demo } });
      expect(await master.json()).toMatchObject({ master_id: 7, title: 'Embedded Import', year: 1999 });

      const refused = catalogue(dataDir, ['import', 'discogs', masters]);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`is in use by process ${server.child.pid}`);
      expect(refused.stderr).toContain('stop it first, or set DATABASE_URL');
    } finally {
      expect(await stopHost(server.child)).toBe(0);
    }
    // Released with the server: importing works again.
    expect(catalogue(dataDir, ['import', 'discogs', masters]).status).toBe(0);
  }, 300_000);
});
