import { openInputFile } from '../cli/open-input-file.js';
import { type DiscogsBatch, type DiscogsKind, parseDiscogs } from '../discogs/index.js';

/** Parses a dump file into its batches; `error` is what the parse threw, if anything. */
export async function parseFile(file: string, options: { kind?: DiscogsKind; batchSize?: number } = {}): Promise<{ batches: DiscogsBatch[]; error: unknown }> {
  const dump = await openInputFile(file);
  const batches: DiscogsBatch[] = [];
  try {
    for await (const batch of parseDiscogs(dump.chunks, options.kind, { source: file, batchSize: options.batchSize })) {
      batches.push(batch);
    }
    return { batches, error: undefined };
  } catch (error) {
    return { batches, error };
  }
}

export function rowsOf(batches: DiscogsBatch[]): unknown[] {
  return batches.flatMap((batch): unknown[] => batch.rows);
}
