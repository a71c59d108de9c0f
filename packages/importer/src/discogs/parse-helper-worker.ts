/**
 * The parse helper of the bulk import (issue 29): one thread beside the dump readers that
 * parses the record segments they hand it (parse-segment.ts) and answers each with its COPY
 * text, on a MessagePort per reader (parse-helper.ts connects them). A reader parsing alone
 * kept one core busy while the other was half idle once the smaller files were in (releases,
 * the largest file, is read last on its own).
 */
import { type MessagePort, parentPort } from 'node:worker_threads';
import { parseSegment, type Segment, transferableUtf8 } from './parse-segment.js';
import { type PostedError, postedError } from './record-error.js';

/** A reader's request: a segment and the number it is answered under. */
export type SegmentRequest = Segment & { id: number };

export type SegmentAnswer = { id: number; bytes: Uint8Array; records: number } | { id: number; error: PostedError };

const port = parentPort;
if (!port) throw new Error('parse-helper-worker.ts runs as a worker thread');

function answer(request: SegmentRequest): { message: SegmentAnswer; transfer: ArrayBuffer[] } {
  try {
    const bytes = transferableUtf8(parseSegment(request));
    return { message: { id: request.id, bytes, records: request.ends.length }, transfer: [bytes.buffer as ArrayBuffer] };
  } catch (error) {
    return { message: { id: request.id, error: postedError(error) }, transfer: [] };
  }
}

port.on('message', ({ reader }: { reader: MessagePort }) => {
  reader.on('message', (request: SegmentRequest) => {
    const { message, transfer } = answer(request);
    reader.postMessage(message, transfer);
  });
});
