/**
 * The loading process of bench/import (a child of run.ts, so its peak RSS is the loader's
 * alone): `catalogue import discogs <files>` exactly as the CLI runs it, with the time each
 * file took. Prints one JSON line of figures on stdout.
 *
 *   node --conditions=catalogue-source --import tsx bench/import/load.ts <database-url> <file>…
 */
import { runCli } from '../../packages/importer/src/cli/run-cli.js';

export interface LoadFigures {
  /** Seconds from the start of the command to its end (parse, load, indexes, finish()). */
  wallSeconds: number;
  /** Per file: records read and seconds spent on it (parse + load). */
  files: Array<{ file: string; records: number; seconds: number }>;
  /** Seconds of what follows the files: applying, indexes, derived data. */
  finishSeconds: number;
  /** Seconds per step after the files (applying, indexes, each finish() step). */
  steps: Record<string, number>;
  /** Peak resident set of this process (worker threads included), in MB. */
  maxRssMb: number;
  exitCode: number;
}

const [url, ...files] = process.argv.slice(2);
if (!url || files.length === 0) throw new Error('usage: load.ts <database-url> <file>…');

const fileFigures: LoadFigures['files'] = [];
const steps: Record<string, number> = {};
let lastFileEnd = 0;
const startedAt = performance.now();
const exitCode = await runCli(['import', 'discogs', ...files], {
  env: { ...process.env, DATABASE_URL: url },
  stdout: process.stderr,
  stderr: process.stderr,
  onFileImported: (file: string, records: number, seconds: number) => {
    fileFigures.push({ file, records, seconds });
    lastFileEnd = performance.now();
  },
  onStep: (step: string, seconds: number) => {
    steps[step] = Math.round(seconds * 10) / 10;
    process.stderr.write(`  ${step}: ${seconds.toFixed(1)} s\n`);
  },
});
const endedAt = performance.now();
const figures: LoadFigures = {
  wallSeconds: (endedAt - startedAt) / 1000,
  files: fileFigures,
  finishSeconds: (endedAt - (lastFileEnd || startedAt)) / 1000,
  steps,
  // resourceUsage().maxRSS is in kilobytes.
  maxRssMb: process.resourceUsage().maxRSS / 1024,
  exitCode,
};
process.stdout.write(`${JSON.stringify(figures)}\n`);
