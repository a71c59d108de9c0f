import { type ByteInput, chunksOf } from './input-chunks.js';
import type { DiscogsBatch, DiscogsKind } from './kinds.js';
import { RecordCollector } from './record-collector.js';
import { ImportError } from './record-error.js';

export const DEFAULT_BATCH_SIZE = 5_000;

export type DiscogsInput = ByteInput;

export interface ParseDiscogsOptions {
  /** Rows per batch (default 5,000). */
  batchSize?: number;
  /** Name used in error messages, usually the file path. */
  source?: string;
}

/**
 * Streams one Discogs dump (already decompressed) and yields its rows in batches of at most
 * `batchSize`. The kind is read from the root element; when `kind` is given a different root
 * is an error. On any error the batch being assembled is dropped: only complete batches are
 * ever yielded, so a writer never sees half of one.
 */
export async function* parseDiscogs(input: DiscogsInput, kind?: DiscogsKind, options: ParseDiscogsOptions = {}): AsyncGenerator<DiscogsBatch, void, undefined> {
  const source = options.source ?? 'input';
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');

  const collector = new RecordCollector(source, kind);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (chunk: Uint8Array | undefined, stream: boolean): string => {
    try {
      return decoder.decode(chunk, { stream });
    } catch (error) {
      throw new ImportError({ source }, 'the file is not valid UTF-8', { cause: error });
    }
  };

  // One chunk may complete many records before it fails; the batches that were complete
  // before the failure are still yielded, so where the error lands never depends on chunking.
  let failure: { error: unknown } | undefined;
  const feed = (step: () => void): void => {
    try {
      step();
    } catch (error) {
      failure = { error };
    }
  };

  for await (const chunk of chunksOf(input, source)) {
    feed(() => collector.write(typeof chunk === 'string' ? chunk : decode(chunk, true)));
    while (collector.completed.length >= batchSize) {
      yield batchOf(collector, collector.completed.splice(0, batchSize));
    }
    if (failure) throw failure.error;
  }
  feed(() => {
    collector.write(decode(undefined, false));
    collector.end();
  });
  while (collector.completed.length >= batchSize) {
    yield batchOf(collector, collector.completed.splice(0, batchSize));
  }
  if (failure) throw failure.error;
  if (collector.completed.length > 0) yield batchOf(collector, collector.completed.splice(0));
}

function batchOf(collector: RecordCollector, rows: unknown[]): DiscogsBatch {
  // The collector only completes rows after it has read the root, so the kind is known here.
  return { kind: collector.kind, rows } as DiscogsBatch;
}
