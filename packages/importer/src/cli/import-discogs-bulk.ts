/**
 * `catalogue import discogs` on PostgreSQL (issue 13): each file is read in a worker thread
 * (read-dump.ts) while this thread streams its COPY text into an import table; only once every
 * file is in are they applied to the catalogue (bulk-load.ts), so a truncated gzip or a bad
 * record leaves the catalogue as it was. Derived data follows in the writer's finish().
 *
 * Two files are read at once, each by its own worker into its own COPY: one worker parsing
 * left the second core mostly idle (this thread streams, PostgreSQL ingests; measured on
 * releases, this thread was idle 92 % of the file's time). Files of one kind go in their
 * given order by one lane, so a later file's record still wins; the largest kinds first, so
 * the lanes end close together. They do not quite: the releases file is half the records, and
 * read alone after the other kinds it left half a core idle (issue 29). So once a lane has no
 * file left, a parse helper thread (discogs/parse-helper.ts) takes segments of records from
 * the readers still running.
 *
 * Keys and indexes wait for the last file (bulk-load.ts apply()). Started as soon as a kind's
 * files were in (issue 29), the artists' slugs and indexes took the releases reader's core: at
 * 4 M records on 2 cores the releases file took 31–49 s longer and what follows the files
 * 13–36 s less, no gain end to end (bench/import/results/issue29-*-prepare-early.txt).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BulkLoad } from '@catalogue/postgres';
import { type ParseHelper, startParseHelper } from '../discogs/parse-helper.js';
import { peekDumpKind } from '../discogs/peek-kind.js';
import { type DumpReading, readDumpInWorker } from '../discogs/read-dump.js';
import type { ImportContext } from './import-discogs.js';
import { type ProgressBoard, startProgressBoard, startStep } from './progress.js';

export interface BulkTarget {
  /** Where the worker reads stored content hashes from. */
  url: string;
  begin(): Promise<BulkLoad>;
}

/** Files read side by side (two cores: a worker each, this thread and PostgreSQL between them). */
const LANES = 2;

interface DumpFile {
  file: string;
  size: number;
}

/**
 * The files grouped by the kind their root names, each group in the order given, the groups
 * largest first. A file whose kind cannot be told is a group of its own (its worker says why).
 */
async function groupsByKind(files: readonly string[]): Promise<DumpFile[][]> {
  const groups = new Map<string, DumpFile[]>();
  for (const [index, file] of files.entries()) {
    const key = (await peekDumpKind(file)) ?? `unknown ${index}`;
    const { size } = await stat(file);
    groups.set(key, [...(groups.get(key) ?? []), { file, size }]);
  }
  const bytes = (group: DumpFile[]) => group.reduce((sum, { size }) => sum + size, 0);
  return [...groups.values()].sort((a, b) => bytes(b) - bytes(a));
}

/** Loads and applies every file; true when any row of the catalogue changed. */
export async function importDiscogsBulk(files: readonly string[], target: BulkTarget, context: ImportContext): Promise<boolean> {
  const load = await target.begin();
  const board = startProgressBoard(context.progress);
  const readings = new Set<DumpReading>();
  const helping: Helping = {};
  let failure: { error: unknown } | undefined;
  try {
    const reportStep = (step: string, seconds: number) => {
      context.onStep?.(step, seconds);
      if (!context.progress.isTTY) context.progress.write(`applied: ${step} in ${seconds.toFixed(1)} s\n`);
    };
    const groups = await groupsByKind(files);
    const lane = async () => {
      for (let group = groups.shift(); group !== undefined && !failure; group = groups.shift()) {
        for (const dump of group) {
          if (failure) return;
          await importFile(dump, target.url, load, board, context, readings, helping);
        }
      }
      // No file left for this lane: its core goes to the files still being read, through a
      // parse helper started now, when this lane's reader has ended (a helper beside two
      // readers took the loader to 356 MB at 1 M records, against its 300 MB goal).
      if (failure || readings.size === 0) return;
      helping.helper ??= startParseHelper();
      for (const reading of readings) reading.useHelper(helping.helper.connect());
    };
    await Promise.allSettled(
      Array.from({ length: LANES }, () =>
        lane().catch((error: unknown) => {
          // The first failure is the one reported; the other lane's file is stopped (its COPY
          // rolled back) rather than read to its end.
          failure ??= { error };
          for (const reading of readings) void reading.stop();
        }),
      ),
    );
    if (failure) throw failure.error;
    const applying = startStep(context.progress, 'applying the loaded files to the catalogue');
    const changed = await load.apply(reportStep);
    applying.done();
    return changed;
  } catch (error) {
    await load.discard().catch(() => undefined);
    throw error;
  } finally {
    board.stop();
    await helping.helper?.stop();
  }
}

/** The import's parse helper, once a lane has run out of files. */
interface Helping {
  helper?: ParseHelper;
}

/** One file read by its worker and COPYed into its import table; `url`: where stored hashes are read. */
async function importFile(
  { file, size }: DumpFile,
  url: string,
  load: BulkLoad,
  board: ProgressBoard,
  context: ImportContext,
  readings: Set<DumpReading>,
  helping: Helping,
): Promise<void> {
  const startedAt = performance.now();
  const progress = board.start(path.basename(file), size);
  const reading = readDumpInWorker(file, url);
  if (helping.helper) reading.useHelper(helping.helper.connect());
  readings.add(reading);
  try {
    const table = await reading.kind;
    let rows = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const batch of reading.batches) {
        yield batch.bytes;
        rows += batch.records;
        progress.update(reading.bytesRead(), rows);
      }
    }
    await load.copy(table, counted());
    const { records, unchanged } = reading.totals();
    progress.update(size, records);
    context.tally.add(table, records);
    if (unchanged > 0) context.unchanged = (context.unchanged ?? 0) + unchanged;
    context.onFileImported?.(file, records, (performance.now() - startedAt) / 1000);
  } finally {
    progress.stop();
    readings.delete(reading);
    await reading.stop();
  }
}
