/**
 * `catalogue import discogs` on PostgreSQL (issue 13): each file is read in a worker thread
 * (read-dump.ts) while this thread streams its COPY text into an import table; only once every
 * file is in are they applied to the catalogue (bulk-load.ts), so a truncated gzip or a bad
 * record leaves the catalogue as it was. Derived data follows in the writer's finish().
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { BulkLoad } from '@catalogue/postgres';
import { readDumpInWorker } from '../discogs/read-dump.js';
import type { ImportContext } from './import-discogs.js';
import { startProgress } from './progress.js';

export interface BulkTarget {
  /** Where the worker reads stored content hashes from. */
  url: string;
  begin(): Promise<BulkLoad>;
}

/** Loads and applies every file; true when any row of the catalogue changed. */
export async function importDiscogsBulk(files: readonly string[], target: BulkTarget, context: ImportContext): Promise<boolean> {
  const load = await target.begin();
  try {
    for (const file of files) {
      const startedAt = performance.now();
      const { size } = await stat(file);
      const progress = startProgress(context.progress, path.basename(file), size);
      const reading = readDumpInWorker(file, target.url);
      try {
        const table = await reading.kind;
        let rows = 0;
        async function* counted(): AsyncGenerator<string> {
          for await (const batch of reading.batches) {
            yield batch.text;
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
        await reading.stop();
      }
    }
    return await load.apply(context.onStep);
  } catch (error) {
    await load.discard().catch(() => undefined);
    throw error;
  }
}
