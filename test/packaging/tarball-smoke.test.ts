/**
 * The built packages as a user installs them (issue 30 item 11): @catalogue/core and
 * @catalogue/postgres are built by their own tsup configs (declarations left out: the
 * packaging test checks those), packed with `npm pack`, and unpacked into one scratch project
 * outside the repository, whose other dependencies are links to this repository's installed
 * ones (no registry). There an ES module and a CommonJS script each migrate a fresh PostgreSQL
 * database, write a small catalogue and compute its derived data, which runs on worker threads
 * that the build must be able to start (the CommonJS build once read an empty import.meta.url
 * there and silently fell back to the main thread).
 *
 * The packages are built in copies, never in packages/*\/dist, which the packaging test
 * rebuilds at the same time.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type TestDatabase } from '../conformance/databases.js';
import { fixtureData } from '../support/fixture-data.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const PACKAGES = ['core', 'postgres'] as const;

let scratch: string;
let app: string;
const databases: TestDatabase[] = [];

/** Builds a copy of packages/<name> with its own tsup config (no declarations) and packs it; the tarball's path. */
async function buildAndPack(name: string): Promise<string> {
  const copy = join(scratch, 'build', name);
  mkdirSync(copy, { recursive: true });
  for (const entry of ['package.json', 'src', 'tsup.config.ts']) cpSync(join(ROOT, 'packages', name, entry), join(copy, entry), { recursive: true });
  cpSync(join(copy, 'tsup.config.ts'), join(copy, 'tsup.package.ts'));
  writeFileSync(join(copy, 'tsup.config.ts'), "import config from './tsup.package.ts';\nexport default { ...config, dts: false };\n");
  await run(join(ROOT, 'node_modules/.bin/tsup'), [], { cwd: copy, env: { ...process.env, NO_COLOR: '1' } });
  const { stdout } = await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', join(scratch, 'tarballs')], { cwd: copy });
  return join(scratch, 'tarballs', stdout.trim().split('\n').at(-1) as string);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'catalogue-tarballs-'));
  mkdirSync(join(scratch, 'tarballs'));
  // tsup and the build configs' own imports resolve from the repository's installation.
  mkdirSync(join(scratch, 'build'));
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'build', 'node_modules'), 'dir');
  app = join(scratch, 'app');
  mkdirSync(join(app, 'node_modules', '@catalogue'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'catalogue-tarball-smoke', private: true }));
  const linked = new Set<string>();
  for (const name of PACKAGES) {
    const tarball = await buildAndPack(name);
    const into = join(app, 'node_modules', '@catalogue', name);
    mkdirSync(into);
    await run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
    const manifest = JSON.parse(readFileSync(join(into, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(manifest.dependencies ?? {})) {
      if (dep.startsWith('@catalogue/') || linked.has(dep)) continue;
      linked.add(dep);
      const at = join(app, 'node_modules', dep);
      mkdirSync(join(at, '..'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', dep), at, 'dir');
    }
  }
  writeFileSync(join(app, 'catalogue.json'), JSON.stringify(fixtureData()));
}, 180_000);

afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * The smoke script in either module system: counts the worker threads started (Worker patched
 * on node:worker_threads before the package runs), loads the catalogue, finish() computes the
 * derived data, and prints what landed.
 */
function script(kind: 'esm' | 'cjs'): string {
  const body = `
    let workers = 0;
    const Original = threads.Worker;
    threads.Worker = class extends Original { constructor(...args) { super(...args); workers += 1; } };
    syncBuiltinESMExports();
    const { connectPostgres, createPostgresWriter, migrate } = await load();
    const url = process.env.SMOKE_DATABASE_URL;
    const sql = connectPostgres(url, { max: 3 }); // the one pass needs 3: the publishing transaction and two beside it (writer/index.ts)
    await migrate(sql);
    const data = JSON.parse(readFileSync('catalogue.json', 'utf8'));
    // Pages of one master: more pages than the writer computes on its own thread.
    const writer = createPostgresWriter(sql, { databaseUrl: url, pageSize: 1 });
    for (const table of ['artists', 'labels', 'releases', 'masters', 'festivals', 'bandcamp']) {
      await writer['write' + table[0].toUpperCase() + table.slice(1)](data[table]);
    }
    await writer.finish();
    const [row] = await sql\`SELECT (SELECT count(*)::int FROM master_records) AS records, (SELECT count(*)::int FROM search_documents) AS documents\`;
    await sql.end();
    console.log(JSON.stringify({ workers, masters: data.masters.length, ...row }));`;
  return kind === 'esm'
    ? `import threads from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
import { readFileSync } from 'node:fs';
const load = () => import('@catalogue/postgres');
${body}`
    : `const threads = require('node:worker_threads');
const { syncBuiltinESMExports } = require('node:module');
const { readFileSync } = require('node:fs');
const load = async () => require('@catalogue/postgres');
(async () => {${body}
})().catch((error) => { console.error(error); process.exit(1); });`;
}

describe('the packed packages in a scratch project', () => {
  for (const kind of ['esm', 'cjs'] as const) {
    it(`${kind}: migrates, loads a catalogue and computes its derived data on worker threads`, async () => {
      const db = await createPostgresDatabase({ max: 1 });
      databases.push(db);
      const file = join(app, kind === 'esm' ? 'smoke.mjs' : 'smoke.cjs');
      writeFileSync(file, script(kind));
      const { stdout } = await run(process.execPath, [file], { cwd: app, env: { ...process.env, SMOKE_DATABASE_URL: db.url } });
      const result = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { workers: number; masters: number; records: number; documents: number };
      expect(result.workers).toBeGreaterThan(0);
      expect(result.records).toBe(result.masters);
      expect(result.documents).toBeGreaterThan(0);
    }, 60_000);
  }
});
