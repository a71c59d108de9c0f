import * as v from 'valibot';
import { type ByteInput, chunksOf } from '../discogs/input-chunks.js';
import { ImportError } from '../discogs/record-error.js';
import { readLines } from './read-lines.js';

export const DEFAULT_FEED_BATCH_SIZE = 1_000;

export interface ParseFeedOptions {
  /** Rows (grouped entities) per batch (default 1,000). */
  batchSize?: number;
  /** Name used in error messages, usually the file path. */
  source?: string;
}

/** How one feed turns validated lines into rows: lines sharing a key become one row. */
export interface FeedFormat<Line, Row> {
  /** 'bandcamp' or 'festivals', for messages. */
  name: string;
  schema: v.GenericSchema<unknown, Line>;
  keyOf(line: Line): number;
  /** What the key means, for messages: 'artist_discogs_id'. */
  keyName: string;
  toRow(lines: Line[]): Row;
}

/**
 * Streams a JSONL feed and yields rows in batches. A row needs all of its lines, and a writer
 * replaces a row by id, so the lines of one key must be contiguous: a key that comes back after
 * other keys is an error rather than a silent overwrite. Only complete batches are yielded; on
 * any error the batch being assembled is dropped and the error names the file and the line.
 */
export async function* parseFeed<Line, Row>(
  chunks: ByteInput,
  format: FeedFormat<Line, Row>,
  options: ParseFeedOptions = {},
): AsyncGenerator<Row[], void, undefined> {
  const source = options.source ?? 'input';
  const batchSize = options.batchSize ?? DEFAULT_FEED_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');

  const closedKeys = new Set<number>();
  let group: { key: number; lines: Line[] } | undefined;
  let batch: Row[] = [];

  for await (const { number, text } of readLines(chunksOf(chunks, source))) {
    const line = parseLine(text, format, { source, line: number });
    const key = format.keyOf(line);
    if (group && group.key === key) {
      group.lines.push(line);
      continue;
    }
    if (closedKeys.has(key)) {
      throw new ImportError(
        { source, line: number },
        `${format.keyName} ${key} appeared earlier in the file: the lines of one ${format.keyName} must be contiguous`,
      );
    }
    if (group) {
      closedKeys.add(group.key);
      batch.push(format.toRow(group.lines));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    group = { key, lines: [line] };
  }
  if (group) batch.push(format.toRow(group.lines));
  if (batch.length > 0) yield batch;
}

function parseLine<Line, Row>(text: string, format: FeedFormat<Line, Row>, where: { source: string; line: number }): Line {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ImportError(where, `invalid JSON: ${(error as Error).message}`, { cause: error });
  }
  const result = v.safeParse(format.schema, json);
  if (!result.success) {
    const issues = result.issues.map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    });
    throw new ImportError(where, `invalid ${format.name} line: ${issues.join('; ')}`);
  }
  return result.output;
}
