/**
 * The loading process of the bench (a child of run.ts, so its peak RSS is the loader's alone):
 * migrate, stream the scaled generator through the PostgreSQL writer exactly as
 * `catalogue seed scale` does, then finish(). Prints one JSON line of figures on stdout.
 *
 *   node --conditions=catalogue-source --import tsx bench/catalogue/load.ts <database-url> <scale>
 */
import { streamCatalogue } from '@catalogue/importer';
import { connectPostgres, createPostgresWriter, migrate } from '@catalogue/postgres';
// The CLI's seed path is not part of the package's public surface; the bench drives it directly.
import { writeCatalogueStream } from '../../packages/importer/src/cli/seed.js';
import { Tally } from '../../packages/importer/src/cli/tally.js';
import { scaledSizes } from './scale.js';

export interface LoadFigures {
  masters: number;
  releases: number;
  /** Seconds writing the rows (batches of staging + merge). */
  writeSeconds: number;
  /** Seconds of writer.finish(): links, slugs, search documents, signals. */
  finishSeconds: number;
  /** finish() by step, in seconds. */
  finishSteps: Record<string, number>;
  /** Peak resident set of this process, in MB. */
  maxRssMb: number;
  /** The peak reached by the end of the write phase and of each finish() step, in MB. */
  peakRssMbAfter: Record<string, number>;
}

const [url, scaleArg] = process.argv.slice(2);
if (!url || !scaleArg) throw new Error('usage: load.ts <database-url> <scale>');

const sql = connectPostgres(url, { max: 4, statementTimeoutMs: 0 });
try {
  await migrate(sql);
  const finishSteps: Record<string, number> = {};
  // The peak RSS reached by the end of each phase: says which phase sets the process's peak.
  const peakRssMbAfter: Record<string, number> = {};
  const writer = createPostgresWriter(sql, {
    onFinishStep: (step, seconds) => {
      finishSteps[step] = Math.round(seconds * 10) / 10;
      peakRssMbAfter[step] = Math.round(process.resourceUsage().maxRSS / 1024);
      process.stderr.write(`  finish: ${step} ${seconds.toFixed(1)} s (peak RSS so far ${peakRssMbAfter[step]} MB)\n`);
    },
  });
  const tally = new Tally();
  const stream = streamCatalogue({ scale: scaledSizes(Number(scaleArg)), titleVocabulary: 'zipf' });
  const startedAt = performance.now();
  await writeCatalogueStream(stream, { writer, tally, progress: process.stderr });
  const writtenAt = performance.now();
  peakRssMbAfter.write = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stderr.write(`rows written: ${tally.summary()}\nfinish() …\n`);
  await writer.finish();
  const finishedAt = performance.now();
  const counts = await sql<Array<{ masters: number; releases: number }>>`
    SELECT (SELECT count(*)::int FROM masters) AS masters, (SELECT count(*)::int FROM releases) AS releases`;
  const figures: LoadFigures = {
    masters: counts[0]?.masters ?? 0,
    releases: counts[0]?.releases ?? 0,
    writeSeconds: (writtenAt - startedAt) / 1000,
    finishSeconds: (finishedAt - writtenAt) / 1000,
    finishSteps,
    // resourceUsage().maxRSS is in kilobytes.
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    peakRssMbAfter,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await sql.end({ timeout: 5 });
}
