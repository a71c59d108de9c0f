/**
 * `npm run contract:dredd` (issue 28): Dredd 14, a third-party contract tester, over both
 * OpenAPI documents as the hosts serve them, unmodified, against real Node hosts on a
 * PostgreSQL database holding the Discogs samples and feeds that ship with the repository.
 *
 * Two hosts share the database: `current` (v1 within 30 days of its sunset, so its answers carry
 * Deprecation, Sunset and the successor Link; CORS_ORIGINS set, so preflights get the CORS
 * answer; Stripe's webhook secret set) and `sunset` (past CUTOVER_SUNSET_AT: v1's keeper routes
 * answer 308, its demoted routes 410). Dredd runs v1 and v2 on `current`, and v1 again on
 * `sunset` for the 308s and 410s. tools/dredd/hooks.cjs says which transactions are provoked
 * and why the rest are skipped; tools/dredd/README.md says how to read the result.
 *
 * Not in `npm test`: Dredd lives in a tree of its own (tools/dredd/package.json), installed here
 * on first use. Exits 1 on any failing or erroring transaction, or if a run passed none.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { createPostgresDatabase } from '../../test/conformance/databases.js';
import { freePort, ROOT } from '../../test/hosts/process-host.js';
import { issueKeyOverHttp } from '../../test/support/admin-keys.js';
import { type NodeHostProcess, spawnNodeHost } from '../../test/support/node-host-process.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const DREDD = join(HERE, 'node_modules', '.bin', 'dredd');
const ADMIN_TOKEN = 'dredd-admin-token-0123456789abcdef';
const SECRET_KEY = '3c'.repeat(32);
const WEBHOOK_SECRET = 'whsec_dredd_0123456789abcdef';
const CORS_ORIGIN = 'https://app.label.example'; // the Origin example of the documents' OPTIONS operations
const DAY_MS = 86_400_000;
const DISCOGS_SAMPLES = ['artists', 'labels', 'masters', 'releases'].map((kind) => `data/discogs/discogs_20200806_${kind}.xml.gz`);

interface Result {
  phase: string;
  name: string;
  expected: string;
  status: 'pass' | 'fail' | 'skip' | undefined;
  reason?: string;
  message?: string;
}

if (!existsSync(DREDD)) {
  console.log('installing Dredd 14 into tools/dredd/node_modules (first use)…');
  execFileSync('npm', ['ci', '--prefix', HERE, '--no-audit', '--no-fund'], { stdio: 'inherit' });
}

/** Dredd as a child process (asynchronously: this process's sockets stay serviced meanwhile). */
function runDredd(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(DREDD, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The `catalogue` CLI on the database, as an operator loads it (README "Import"). */
function catalogueCli(databaseUrl: string, args: string[]): void {
  execFileSync('npx', ['catalogue', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'ignore', 'inherit'] });
}

const work = mkdtempSync(join(tmpdir(), 'catalogue-dredd-'));
const db = await createPostgresDatabase({ max: 2 });
const hosts: NodeHostProcess[] = [];
let failed = false;
try {
  // The Discogs samples and both feeds, imported with the CLI: the documents' examples (Vince
  // Watson, Planet E, master 113, Movement Detroit) name records of these.
  catalogueCli(db.url, ['migrate']);
  catalogueCli(db.url, ['import', 'discogs', ...DISCOGS_SAMPLES]);
  for (const feed of ['data/feeds', 'packages/importer/test/fixtures/feeds']) {
    catalogueCli(db.url, ['import', 'bandcamp', `${feed}/bandcamp.jsonl`]);
    catalogueCli(db.url, ['import', 'festivals', `${feed}/festivals.jsonl`]);
  }
  const start = async (sunsetAt: string) => {
    const port = await freePort();
    hosts.push(
      await spawnNodeHost({
        DATABASE_URL: db.url,
        DATABASE_POOL_MAX: '4',
        ADMIN_TOKEN,
        SECRET_KEY,
        CUTOVER_SUNSET_AT: sunsetAt,
        CORS_ORIGINS: CORS_ORIGIN,
        STRIPE_SECRET_KEY: 'sk_test_dredd',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        // No Stripe call is made by the webhook's example event; if one were, it would go nowhere.
        STRIPE_API_BASE: 'http://127.0.0.1:9',
        PORT: String(port),
      }),
    );
    return `http://127.0.0.1:${port}`;
  };
  const now = Date.now();
  const [current, sunset] = await Promise.all([start(new Date(now + 20 * DAY_MS).toISOString()), start(new Date(now - 20 * DAY_MS).toISOString())]);
  // The contract tier: Dredd's few hundred calls stay far from any quota or burst.
  const key = await issueKeyOverHttp(current, ADMIN_TOKEN, { email: 'dredd@label.example', tier: 'contract_2000' });

  const runs: Array<{ version: string; phase: 'current' | 'sunset'; base: string }> = [
    { version: 'v1', phase: 'current', base: current },
    { version: 'v2', phase: 'current', base: current },
    { version: 'v1', phase: 'sunset', base: sunset },
  ];
  const rows: string[] = [];
  const skipped = new Map<string, number>();
  for (const run of runs) {
    // The document as the current host serves it, saved byte for byte: Dredd reads it from a
    // file because it spends seconds parsing, and a keep-alive socket it reused after that was
    // one the host had closed (an "Error connecting" on the first transaction).
    const document = join(work, `${run.version}.json`);
    const served = await fetch(`${current}/api/${run.version}/openapi.json`);
    writeFileSync(document, Buffer.from(await served.arrayBuffer()));
    const results = join(work, `${run.version}-${run.phase}.jsonl`);
    writeFileSync(results, '');
    const dredd = await runDredd([document, run.base, '--header', `X-API-Key: ${key}`, '--hookfiles', join(HERE, 'hooks.cjs'), '--loglevel', 'error'], {
      DREDD_DOCUMENT: document,
      DREDD_BASE: run.base,
      DREDD_API_KEY: key,
      DREDD_ADMIN_TOKEN: ADMIN_TOKEN,
      DREDD_WEBHOOK_SECRET: WEBHOOK_SECRET,
      DREDD_PHASE: run.phase,
      DREDD_RESULTS: results,
    });
    const seen = readFileSync(results, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Result);
    const summary =
      (stripVTControlCharacters(dredd.stdout).match(/complete: (\d+ passing, \d+ failing, \d+ errors, \d+ skipped, \d+ total)/) ?? [])[1] ?? 'no summary';
    const passing = seen.filter((r) => r.status === 'pass');
    const byStatus = new Map<string, number>();
    for (const r of passing) byStatus.set(r.expected, (byStatus.get(r.expected) ?? 0) + 1);
    rows.push(
      `| ${run.version} | ${run.phase} | ${summary} | ${[...byStatus]
        .sort()
        .map(([status, n]) => `${status}×${n}`)
        .join(' ')} |`,
    );
    for (const r of seen.filter((r) => r.status === 'skip')) skipped.set(r.reason ?? '?', (skipped.get(r.reason ?? '?') ?? 0) + 1);
    const bad = seen.filter((r) => r.status !== 'pass' && r.status !== 'skip');
    const dreddFailed = /(\d+) failing, (\d+) errors/.exec(summary);
    if (dredd.status !== 0 || bad.length > 0 || passing.length === 0 || !dreddFailed || dreddFailed[1] !== '0' || dreddFailed[2] !== '0') {
      failed = true;
      for (const r of bad) console.log(`FAIL ${run.version} ${run.phase}: ${r.name}\n  ${String(r.message ?? '').replace(/\n/g, '\n  ')}`);
      if (bad.length === 0)
        console.log(`${run.version} ${run.phase}: Dredd exited ${dredd.status}\n${dredd.stdout.slice(-4000)}\n${dredd.stderr.slice(-4000)}`);
    }
  }
  console.log('\n| document | host | Dredd 14 | passing, by documented status |\n|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('\n| transactions skipped (all runs) | why |\n|---|---|');
  for (const [reason, n] of [...skipped].sort((a, b) => b[1] - a[1])) console.log(`| ${n} | ${reason} |`);
  console.log(failed ? '\nDredd found answers the documents do not describe (above).' : '\nEvery transaction Dredd provoked passed.');
} finally {
  await Promise.all(hosts.map((host) => host.stop()));
  await db.drop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
