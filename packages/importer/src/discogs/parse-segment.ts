/**
 * A segment of records that a dump reader (dump-worker.ts) handed to the parse helper
 * (parse-helper-worker.ts) instead of parsing them itself (issue 29): the records as the reader
 * cut them (skipped subtrees already out, content hash already taken), parsed by the same SAX
 * collector and mappers and turned into the same COPY lines, with the same error messages: the
 * collector counts from the segment's first record, so a bad record is named by its number in
 * the file.
 */
// The COPY lines alone: the whole package (its driver, its migrations) cost the helper thread 20 MB.
import { type BulkTable, bulkLine } from '@catalogue/postgres/bulk-rows';
import type { DiscogsKind } from './kinds.js';
import { RecordCollector } from './record-collector.js';
import { ImportError } from './record-error.js';

export interface Segment {
  /** The file, as error messages name it. */
  source: string;
  kind: DiscogsKind;
  /** The records' bytes, back to back. */
  bytes: Uint8Array;
  /** Where each record ends in `bytes`. */
  ends: number[];
  /** Each record's content hash (a uuid's text). */
  hashes: string[];
  /** The 1-based number in its file of the segment's first record. */
  firstRecord: number;
}

/** The segment's COPY lines, in record order. */
export function parseSegment(segment: Segment): string {
  const { source, kind, bytes, ends, hashes } = segment;
  const collector = new RecordCollector(source, kind);
  collector.write(`<${kind}>`);
  collector.recordCount = segment.firstRecord - 1;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let text = '';
  let start = 0;
  for (const [index, end] of ends.entries()) {
    let xml: string;
    try {
      xml = decoder.decode(bytes.subarray(start, end));
    } catch (error) {
      throw new ImportError({ source }, 'the file is not valid UTF-8', { cause: error });
    }
    collector.write(xml);
    const rows = collector.completed;
    for (const row of rows) text += bulkLine(kind as BulkTable, row as never, hashes[index] ?? null);
    rows.length = 0;
    start = end;
  }
  // A record that left the parser inside something unclosed (a comment, a CDATA section) is
  // reported here, by the collector, rather than dropped with the segment.
  collector.write(`</${kind}>`);
  collector.end();
  return text;
}

/** UTF-8 bytes in an ArrayBuffer of their own (not Buffer's shared pool), so they can be transferred. */
export function transferableUtf8(text: string): Uint8Array {
  const bytes = new Uint8Array(Buffer.byteLength(text));
  Buffer.from(bytes.buffer).write(text);
  return bytes;
}
