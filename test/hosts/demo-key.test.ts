/**
 * docs/decisions.md §1: a host on DATABASE_URL never mints the demo customer unasked, prints no key and
 * no operator secret, and a start that fails writes nothing to the database. The embedded
 * default keeps its demo key (test/embedded/restart.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { spawnNodeHost } from '../support/node-host-process.js';
import { freePort } from './process-host.js';

const ADMIN_TOKEN = 'operator-admin-token-that-must-not-be-printed';
const KEY_PATTERN = /ck_(live|test)_[0-9A-Za-z]{32}/;

interface Run {
  code: number | null;
  output: string;
}

/** Starts the Node host; stops it with SIGTERM once it listens, or reports how it exited. */
async function runNodeHost(env: Record<string, string>): Promise<Run> {
  const host = await spawnNodeHost(env);
  const code = await host.stop();
  return { code, output: host.output() };
}

describe('the demo key on a DATABASE_URL (docs/decisions.md §1)', () => {
  let db: TestDatabase;
  const scratch = mkdtempSync(join(tmpdir(), 'catalogue-demo-key-'));
  const customers = async () => (await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM customers`)[0]?.n;

  beforeAll(async () => {
    db = await createPostgresDatabase({ max: 1 });
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('mints no demo customer, prints no key and no admin token, and writes no data dir', async () => {
    const dataDir = join(scratch, 'unused');
    const run = await runNodeHost({ DATABASE_URL: db.url, ADMIN_TOKEN, PORT: String(await freePort()), CATALOGUE_DATA_DIR: dataDir });
    expect(run.output).toContain('listening on');
    expect(run.code).toBe(0);
    expect(run.output).not.toMatch(KEY_PATTERN);
    expect(run.output).not.toContain(ADMIN_TOKEN);
    expect(run.output).toContain('admin routes: enabled');
    expect(await customers()).toBe(0);
    expect(() => rmSync(dataDir)).toThrow(/ENOENT/);
  }, 90_000);

  it('with CATALOGUE_DEMO_KEY=true: a data dir that cannot be written fails the start before any customer is written', async () => {
    const notADir = join(scratch, 'a-file');
    writeFileSync(notADir, 'not a directory');
    for (let start = 0; start < 3; start++) {
      const run = await runNodeHost({
        DATABASE_URL: db.url,
        ADMIN_TOKEN,
        CATALOGUE_DEMO_KEY: 'true',
        PORT: String(await freePort()),
        CATALOGUE_DATA_DIR: join(notADir, 'data'),
      });
      expect(run.code).toBe(1);
      expect(run.output).not.toMatch(KEY_PATTERN);
    }
    expect(await customers()).toBe(0);
  }, 180_000);

  it('with CATALOGUE_DEMO_KEY=true: a port in use fails the start before any customer is written', async () => {
    const port = await freePort();
    const taken: Server = await new Promise((resolve) => {
      const server = createServer().listen(port, '0.0.0.0', () => resolve(server));
    });
    try {
      const run = await runNodeHost({
        DATABASE_URL: db.url,
        ADMIN_TOKEN,
        CATALOGUE_DEMO_KEY: 'true',
        PORT: String(port),
        CATALOGUE_DATA_DIR: join(scratch, 'busy'),
      });
      expect(run.code).toBe(1);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    expect(await customers()).toBe(0);
  }, 90_000);

  it('with CATALOGUE_DEMO_KEY=true: one demo customer, the same key across restarts, and still no admin token printed', async () => {
    const dataDir = join(scratch, 'kept');
    const env = { DATABASE_URL: db.url, ADMIN_TOKEN, CATALOGUE_DEMO_KEY: 'true', CATALOGUE_DATA_DIR: dataDir };
    const first = await runNodeHost({ ...env, PORT: String(await freePort()) });
    const second = await runNodeHost({ ...env, PORT: String(await freePort()) });
    const key = KEY_PATTERN.exec(first.output)?.[0];
    expect(key).toMatch(/^ck_test_/);
    expect(KEY_PATTERN.exec(second.output)?.[0]).toBe(key);
    expect(first.output + second.output).not.toContain(ADMIN_TOKEN);
    expect(await customers()).toBe(1);
  }, 180_000);
});
