import path from 'node:path';
import type { CatalogueWriter } from '@catalogue/core';
import { parseDiscogs } from '../discogs/parse-discogs.js';
import { openInputFile } from './open-input-file.js';
import { pipeBatches } from './pipe-batches.js';
import { type ProgressStream, startProgress } from './progress.js';
import { writeTable } from './tables.js';
import type { Tally } from './tally.js';

export interface ImportContext {
  writer: CatalogueWriter;
  tally: Tally;
  progress: ProgressStream;
  batchSize?: number;
  onFileImported?: (file: string, records: number, seconds: number) => void;
  /** Told how long each step of applying a bulk import took. */
  onStep?: (step: string, seconds: number) => void;
  /** Records a bulk re-import skipped because they are unchanged. */
  unchanged?: number;
}

/** Streams each dump into the writer, in the order given; progress is bytes of the file read. */
export async function importDiscogsFiles(files: readonly string[], context: ImportContext): Promise<void> {
  for (const file of files) {
    const startedAt = performance.now();
    const input = await openInputFile(file);
    const progress = startProgress(context.progress, path.basename(file), input.size);
    let rows = 0;
    try {
      const batches = parseDiscogs(input.chunks, undefined, { source: file, batchSize: context.batchSize });
      await pipeBatches(batches, async (batch) => {
        await writeTable(context.writer, batch.kind, batch.rows);
        context.tally.add(batch.kind, batch.rows.length);
        rows += batch.rows.length;
        progress.update(input.bytesRead(), rows);
      });
      progress.update(input.size, rows);
      context.onFileImported?.(file, rows, (performance.now() - startedAt) / 1000);
    } finally {
      progress.stop();
    }
  }
}
