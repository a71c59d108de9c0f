/**
 * bench/import (issue 13): imports a Discogs-format dump end to end — parse, load, indexes,
 * every derived table (finish()), ready to serve — and prints records/s per file kind, the
 * total wall time, and the peak RSS of the loader and of PostgreSQL; then imports the same
 * dump again and says how long that took and whether any row changed.
 *
 *   npm run bench:import                          # 100,000 records per file kind
 *   BENCH_IMPORT_N=1000000 npm run bench:import   # 1,000,000 per kind
 *   BENCH_IMPORT_MIX=2020 npm run bench:import    # 4 × N records in the 2020-08 proportions
 *   BENCH_IMPORT_REFS=clustered npm run bench:import   # releases refer to only 1,000 masters
 *   BENCH_IMPORT_REIMPORT=0 npm run bench:import   # the first import only (no re-import, no checksums)
 *   BENCH_BASELINE_ROOT=/path/to/checkout npm run bench:import
 *       # first imports the same dump with that checkout's loader (its bench/import/load.ts,
 *       # its node_modules) into a database of its own, then this one's; prints the ratio
 *       # of records/s and both loaders' peak RSS (issue 29: the goal is a ratio in one run)
 *
 * The dump is built once from data/discogs (dump.ts) under BENCH_IMPORT_DIR
 * (/tmp/catalogue-bench-import). The database is a fresh `catalogue_bench_import_<random>` on
 * 127.0.0.1:5432 (BENCH_ADMIN_URL), dropped at the end unless BENCH_KEEP=1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { changedTables, tableChecksums } from '../../packages/importer/src/test-support/table-checksums.js';
import { resultFile } from '../result-file.js';
import { buildDump, KINDS, type Kind, type References } from './dump.js';
import type { LoadFigures } from './load.js';

const env = process.env;
const perKind = Number(env.BENCH_IMPORT_N ?? 100_000);
const mix2020 = env.BENCH_IMPORT_MIX === '2020';
const directory = env.BENCH_IMPORT_DIR ?? '/tmp/catalogue-bench-import';
const adminUrl = env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const references: References = env.BENCH_IMPORT_REFS === 'clustered' ? 'clustered' : 'spread';
if (env.BENCH_IMPORT_REFS !== undefined && env.BENCH_IMPORT_REFS !== 'clustered' && env.BENCH_IMPORT_REFS !== 'spread') {
  throw new Error('BENCH_IMPORT_REFS is spread (the default) or clustered');
}
/** BENCH_IMPORT_REIMPORT=0: no re-import (a full-size run, where only the first import is asked). */
const reimport = env.BENCH_IMPORT_REIMPORT !== '0';
const baselineRoot = env.BENCH_BASELINE_ROOT ? path.resolve(env.BENCH_BASELINE_ROOT) : undefined;

/** The 2020-08 dump: 7.0 M artists, 1.6 M labels, 1.7 M masters, 12.9 M releases. */
const DUMP_2020_08: Record<Kind, number> = { artists: 7_000_000, labels: 1_600_000, masters: 1_700_000, releases: 12_900_000 };
const total2020 = Object.values(DUMP_2020_08).reduce((a, b) => a + b, 0);

function countsFor(): Record<Kind, number> {
  if (!mix2020) return Object.fromEntries(KINDS.map((kind) => [kind, perKind])) as Record<Kind, number>;
  // Same total as N per kind, in the 2020-08 proportions (rounded to whole samples).
  return Object.fromEntries(KINDS.map((kind) => [kind, Math.round((4 * perKind * DUMP_2020_08[kind]) / total2020 / 1000) * 1000])) as Record<Kind, number>;
}

/** The tables, printed and kept in bench/import/results/ (saved at the end of a run). */
const table = resultFile('import');
function out(text: string): void {
  for (const line of text.replace(/\n$/, '').split('\n')) table.log(line);
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** RSS (kB) of a process from /proc, 0 when it is gone. */
function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Samples, every 200 ms, the summed RSS of the PostgreSQL processes serving the bench database
 * (its backends and their parallel workers, from pg_stat_activity); keeps the peak.
 */
function samplePostgres(url: string, database: string): { stop(): Promise<number> } {
  const sql = postgres(url, { max: 1, onnotice: () => undefined });
  let peakKb = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const rows = await sql<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE datname = ${database} AND pid <> pg_backend_pid()`;
        const sum = rows.reduce((total, row) => total + rssKb(row.pid), 0);
        peakKb = Math.max(peakKb, sum);
      } catch {
        // The database may be busy being created or dropped; the next sample will do.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sql.end({ timeout: 5 });
      return peakKb / 1024;
    },
  };
}

/** `root`: the checkout whose loader runs (this one, or BENCH_BASELINE_ROOT's with its own node_modules). */
function spawnLoader(url: string, files: string[], root?: string): ChildProcess {
  const script = root ? path.join(root, 'bench/import/load.ts') : fileURLToPath(new URL('./load.ts', import.meta.url));
  // The node flags and the malloc setting `npx catalogue import` runs with (packages/importer/bin/catalogue.mjs).
  return spawn(process.execPath, ['--max-semi-space-size=4', '--conditions=catalogue-source', '--import', 'tsx', script, url, ...files], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { MALLOC_MMAP_THRESHOLD_: '131072', ...process.env },
    ...(root ? { cwd: root } : {}),
  });
}

async function load(url: string, database: string, files: string[], root?: string): Promise<LoadFigures & { postgresPeakMb: number }> {
  const sampler = samplePostgres(url, database);
  const child = spawnLoader(url, files, root);
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`loader exited with code ${code}`)));
  });
  await new Promise((resolve) => child.once('exit', resolve));
  const postgresPeakMb = await sampler.stop();
  const figures = JSON.parse(line) as LoadFigures;
  if (figures.exitCode !== 0) throw new Error(`the import failed (exit code ${figures.exitCode})`);
  return { ...figures, postgresPeakMb };
}

const kindOf = (file: string) => KINDS.find((kind) => path.basename(file).includes(`_${kind}_`)) ?? file;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function printRun(title: string, figures: LoadFigures & { postgresPeakMb: number }): void {
  const records = figures.files.reduce((total, file) => total + file.records, 0);
  const lines = [
    `${title}`,
    '| file kind | records | seconds | records/s |',
    '|---|---:|---:|---:|',
    ...figures.files.map((file) => `| ${kindOf(file.file)} | ${fmt(file.records)} | ${file.seconds.toFixed(1)} | ${fmt(file.records / file.seconds)} |`),
    `| after the files (apply, indexes, finish()) | | ${figures.finishSeconds.toFixed(1)} | |`,
    ...Object.entries(figures.steps ?? {}).map(([step, seconds]) => `| · ${step} | | ${seconds.toFixed(1)} | |`),
    `| **end to end** | ${fmt(records)} | ${figures.wallSeconds.toFixed(1)} | **${fmt(records / figures.wallSeconds)}** |`,
    '',
    `loader peak RSS ${fmt(figures.maxRssMb)} MB · PostgreSQL peak RSS ${fmt(figures.postgresPeakMb)} MB (backends of the bench database, summed)`,
    '',
  ];
  out(`${lines.join('\n')}\n`);
}

/**
 * What the measured rates say the 2020-08 dump would take: each kind at this run's rate, read
 * by two lanes as the importer reads them (import-discogs-bulk.ts: the largest kind first, the
 * next kind to the lane that frees first); the rates were measured with both lanes busy, so a
 * lane left alone is projected slower than it runs. What follows the files is scaled by records.
 */
function print2020Projection(figures: LoadFigures): void {
  const records = figures.files.reduce((total, file) => total + file.records, 0);
  const rows = figures.files
    .map((file) => {
      const kind = kindOf(file.file) as Kind;
      const count = DUMP_2020_08[kind] ?? 0;
      return { kind, count, seconds: count / (file.records / file.seconds) };
    })
    .sort((a, b) => b.count - a.count);
  let [first, second] = [0, 0];
  for (const row of rows) {
    if (first <= second) first += row.seconds;
    else second += row.seconds;
  }
  const filesSeconds = Math.max(first, second);
  const rest = figures.finishSeconds * (total2020 / records);
  const totalSeconds = filesSeconds + rest;
  const lines = [
    "projected to the 2020-08 mix (this run's rate per file kind, two lanes; what follows the files scaled by records)",
    '| file kind | records | projected seconds |',
    '|---|---:|---:|',
    ...rows.map((row) => `| ${row.kind} | ${fmt(row.count)} | ${fmt(row.seconds)} |`),
    `| the files, two lanes | | ${fmt(filesSeconds)} |`,
    `| after the files | | ${fmt(rest)} |`,
    `| **total** | ${fmt(total2020)} | ${fmt(totalSeconds)} (${(totalSeconds / 60).toFixed(1)} min, ${fmt(total2020 / totalSeconds)} records/s) |`,
    '',
  ];
  out(`${lines.join('\n')}\n`);
}

/**
 * The tables each record kind fills (issue 29: the database size per record kind); what every
 * kind feeds (search, facets) is a group of its own.
 */
const TABLES_OF: Record<Kind | 'search (every kind)', readonly string[]> = {
  artists: ['artists'],
  labels: ['labels'],
  masters: ['masters', 'master_artists', 'master_labels', 'master_records'],
  releases: ['releases', 'release_credits'],
  'search (every kind)': ['search_documents', 'search_terms', 'search_style_words', 'search_vocabulary', 'facet_totals', 'facet_codes'],
};

interface TableSize {
  table: string;
  heapMb: number;
  toastMb: number;
  indexesMb: number;
}

/** Heap, TOAST and index sizes of every table of the database, after the first import. */
async function sizeByKind(sql: postgres.Sql): Promise<{ tables: TableSize[]; databaseMb: number }> {
  const tables = await sql<TableSize[]>`
    SELECT c.relname AS table,
           pg_relation_size(c.oid) / 1048576.0 AS "heapMb",
           coalesce(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0) / 1048576.0 AS "toastMb",
           pg_indexes_size(c.oid) / 1048576.0 AS "indexesMb"
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname = 'public'
    ORDER BY c.relname`;
  const [database] = await sql<Array<{ mb: number }>>`SELECT pg_database_size(current_database()) / 1048576.0 AS mb`;
  return {
    tables: tables.map((row) => ({ ...row, heapMb: Number(row.heapMb), toastMb: Number(row.toastMb), indexesMb: Number(row.indexesMb) })),
    databaseMb: Number(database?.mb ?? 0),
  };
}

function printSizes({ tables, databaseMb }: { tables: TableSize[]; databaseMb: number }, counts: Record<Kind, number>): void {
  const byName = new Map(tables.map((row) => [row.table, row]));
  const grouped = new Set(Object.values(TABLES_OF).flat());
  const other = tables.filter((row) => !grouped.has(row.table)).map((row) => row.table);
  const groups = [...Object.entries(TABLES_OF), ['other tables', other] as const];
  const mb = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
  const lines = [
    `database size after the first import: ${mb(databaseMb)} MB`,
    '| record kind | tables | heap MB | TOAST MB | indexes MB | total MB | bytes per record |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const [kind, names] of groups) {
    const rows = names.map((name) => byName.get(name)).filter((row): row is TableSize => row !== undefined);
    const heap = rows.reduce((sum, row) => sum + row.heapMb, 0);
    const toast = rows.reduce((sum, row) => sum + row.toastMb, 0);
    const indexes = rows.reduce((sum, row) => sum + row.indexesMb, 0);
    const records = (counts as Record<string, number>)[kind];
    const perRecord = records ? fmt(((heap + toast + indexes) * 1048576) / records) : '';
    lines.push(
      `| ${kind} | ${kind === 'other tables' ? `${names.length} tables (accounts, usage, feeds, signals)` : names.join(', ')} | ${mb(heap)} | ${mb(toast)} | ${mb(indexes)} | ${mb(heap + toast + indexes)} | ${perRecord} |`,
    );
  }
  lines.push('', '| table | heap MB | TOAST MB | indexes MB |', '|---|---:|---:|---:|');
  for (const row of [...tables].sort((a, b) => b.heapMb + b.toastMb + b.indexesMb - (a.heapMb + a.toastMb + a.indexesMb)).slice(0, 12)) {
    lines.push(`| ${row.table} | ${mb(row.heapMb)} | ${mb(row.toastMb)} | ${mb(row.indexesMb)} |`);
  }
  out(`${lines.join('\n')}\n\n`);
}

const counts = countsFor();
log(`dump: ${KINDS.map((kind) => `${fmt(counts[kind])} ${kind}`).join(', ')} (${directory})`);
const files = await buildDump(directory, counts, log, references);
const fileList = KINDS.map((kind) => files[kind]);

const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
const records = (figures: LoadFigures) => figures.files.reduce((total, file) => total + file.records, 0);

/** The baseline's first import of the same dump, on a database of its own (dropped after). */
let baseline: (LoadFigures & { postgresPeakMb: number }) | undefined;
if (baselineRoot) {
  const baselineDatabase = `catalogue_bench_import_base_${Math.random().toString(36).slice(2, 10)}`;
  await admin.unsafe(`CREATE DATABASE ${baselineDatabase}`);
  const baselineUrl = new URL(adminUrl);
  baselineUrl.pathname = `/${baselineDatabase}`;
  try {
    log(`baseline ${baselineRoot}: first import into ${baselineDatabase} …`);
    baseline = await load(baselineUrl.toString(), baselineDatabase, fileList, baselineRoot);
  } finally {
    await admin.unsafe(`DROP DATABASE ${baselineDatabase} WITH (FORCE)`);
  }
}

const database = `catalogue_bench_import_${Math.random().toString(36).slice(2, 10)}`;
await admin.unsafe(`CREATE DATABASE ${database}`);
const url = new URL(adminUrl);
url.pathname = `/${database}`;
try {
  log(`database ${database}: first import …`);
  const first = await load(url.toString(), database, fileList);
  const inspect = postgres(url.toString(), { max: 1, onnotice: () => undefined });
  const sizes = await sizeByKind(inspect);
  let second: (LoadFigures & { postgresPeakMb: number }) | undefined;
  let changed: string[] = [];
  if (reimport) {
    const before = await tableChecksums(inspect);
    log('re-import of the same dump …');
    second = await load(url.toString(), database, fileList);
    changed = changedTables(before, await tableChecksums(inspect));
  }
  await inspect.end({ timeout: 5 });

  const machine = `${env.HOSTNAME ?? 'this machine'}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
  out(
    `\n## bench:import — ${mix2020 ? `2020-08 mix, ${fmt(4 * perKind)} records` : `${fmt(perKind)} records per file kind`}, references ${references} (${machine})\n\n`,
  );
  if (baseline) {
    printRun(`baseline (${baselineRoot}), first import`, baseline);
    const ratio = records(first) / first.wallSeconds / (records(baseline) / baseline.wallSeconds);
    out(
      `this checkout / baseline: **${ratio.toFixed(2)}×** records/s end to end (${fmt(records(first) / first.wallSeconds)} vs ${fmt(records(baseline) / baseline.wallSeconds)}); ` +
        `loader peak ${fmt(first.maxRssMb)} MB vs ${fmt(baseline.maxRssMb)} MB (issue 29: ≥ 1.35×, ≤ 300 MB)\n\n`,
    );
  }
  printRun('first import', first);
  printSizes(sizes, counts);
  if (!mix2020) print2020Projection(first);
  if (second) {
    printRun('re-import of the unchanged dump', second);
    out(
      `re-import / first import: ${((100 * second.wallSeconds) / first.wallSeconds).toFixed(1)} % of the time (goal ≤ 25 %); ` +
        `rows changed: ${changed.length === 0 ? 'none (row counts and checksums of every table equal)' : `in ${changed.join(', ')}`}\n`,
    );
  }
  out(`${JSON.stringify({ perKind, mix2020, references, counts, baselineRoot, baseline, first, second, changedTables: changed, sizes })}\n`);
  log(`kept in ${table.save()}`);
} finally {
  if (env.BENCH_KEEP !== '1') await admin.unsafe(`DROP DATABASE ${database} WITH (FORCE)`);
  else log(`kept ${url}`);
  await admin.end({ timeout: 5 });
}
