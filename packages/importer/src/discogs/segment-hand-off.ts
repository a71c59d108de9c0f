/**
 * A dump reader's side of the parse helper (issue 29; parse-helper.ts): the records the reader
 * does not parse itself, gathered into segments of about SEGMENT_BYTES and sent to the helper,
 * whose COPY text comes back in the order of the file (OrderedBatches). The reader hands a
 * segment over only while fewer than MAX_OUTSTANDING of its segments wait at the helper, so a
 * helper busy with the other reader, or a core busy with PostgreSQL, leaves the parsing here:
 * the split follows whichever thread has the time.
 */
import type { MessagePort } from 'node:worker_threads';
import type { HandOff } from './dump-scanner.js';
import type { DiscogsKind } from './kinds.js';
import type { SegmentAnswer, SegmentRequest } from './parse-helper-worker.js';
import { importErrorFrom } from './record-error.js';

/** About 1,000 releases: a message a millisecond's parsing apart, small beside the 1 MB COPY batches. */
const SEGMENT_BYTES = 1 << 20;
/** One segment parsed while the next waits: the helper never idles for want of one, and holds little. */
const MAX_OUTSTANDING = 2;

export interface TextBatch {
  bytes: Uint8Array;
  records: number;
}

type Entry = { batch: Promise<TextBatch>; settled: boolean };

/** COPY text batches in the order of the file, some still being parsed by the helper. */
export class OrderedBatches {
  private readonly entries: Entry[] = [];
  /** A batch was refused: its error is the first of the file, whatever the reader meets after it. */
  refused = false;

  push(batch: Promise<TextBatch>): void {
    const entry: Entry = { batch, settled: false };
    const settle = () => {
      entry.settled = true;
    };
    batch.then(settle, settle);
    this.entries.push(entry);
  }

  get length(): number {
    return this.entries.length;
  }

  /**
   * The first batch once it is parsed. When the helper refused it, its error, and the batches
   * after it are dropped: they come later in the file, so none of their errors is the first.
   */
  async shift(): Promise<TextBatch> {
    const entry = this.entries.shift();
    if (!entry) throw new Error('no batch is waiting');
    try {
      return await entry.batch;
    } catch (error) {
      this.entries.length = 0;
      this.refused = true;
      throw error;
    }
  }

  /** True when the first batch can be taken without waiting. */
  headReady(): boolean {
    return this.entries[0]?.settled ?? false;
  }

  /** Every batch parsed, the first error thrown: what an error further on in the file must not hide. */
  async settleAll(): Promise<void> {
    for (const entry of this.entries) await entry.batch;
  }
}

export class SegmentHandOff {
  private readonly waiting = new Map<number, { resolve: (batch: TextBatch) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private segment: { parts: Buffer[]; size: number; ends: number[]; hashes: string[]; firstRecord: number } | null = null;
  private mode: 'choose' | 'local' | 'helper' = 'choose';
  private localBytes = 0;
  private stopped: Error | null = null;

  private port: MessagePort | null = null;

  /**
   * `closeLocal`: the reader's own text so far goes into `output` (called before a segment
   * starts, so that text comes first); `kind`: the dump's kind, known before the first record.
   */
  constructor(
    private readonly source: string,
    private readonly kind: () => DiscogsKind,
    private readonly output: OrderedBatches,
    private readonly closeLocal: () => void,
  ) {}

  /** The helper's port, once the import has a helper for this reader (parse-helper.ts); until then every record is parsed here. */
  attach(port: MessagePort): void {
    if (this.port) {
      port.close();
      return;
    }
    this.port = port;
    port.on('message', (answer: SegmentAnswer) => {
      const waiter = this.waiting.get(answer.id);
      if (!waiter) return;
      this.waiting.delete(answer.id);
      if ('error' in answer) waiter.reject(importErrorFrom(this.source, answer.error));
      else waiter.resolve({ bytes: answer.bytes, records: answer.records });
    });
    // The helper's thread ended (it failed, or the import is stopping): nothing more is answered.
    port.on('close', () => this.stop(new Error('the parse helper stopped before the end of the file')));
  }

  /** The DumpScanner's hand-off: takes the record while a segment is being gathered. */
  readonly offer: HandOff = (record, hash, recordNumber) => {
    if (this.mode === 'choose') {
      this.mode = this.port && this.waiting.size < MAX_OUTSTANDING && !this.stopped ? 'helper' : 'local';
      this.localBytes = 0;
      if (this.mode === 'helper') {
        this.closeLocal();
        this.segment = { parts: [], size: 0, ends: [], hashes: [], firstRecord: recordNumber };
      }
    }
    if (this.mode === 'local') {
      this.localBytes += record.length;
      if (this.localBytes >= SEGMENT_BYTES) this.mode = 'choose';
      return false;
    }
    const segment = this.segment as NonNullable<typeof this.segment>;
    segment.parts.push(record);
    segment.size += record.length;
    segment.ends.push(segment.size);
    segment.hashes.push(hash);
    if (segment.size >= SEGMENT_BYTES) this.send();
    return true;
  };

  /** Sends the segment being gathered, if any: before any text the reader makes after it, and at the end. */
  flush(): void {
    if (this.segment) this.send();
  }

  close(): void {
    this.port?.close();
  }

  private send(): void {
    const segment = this.segment as NonNullable<typeof this.segment>;
    this.segment = null;
    this.mode = 'choose';
    // One buffer of its own, transferred: the records are views of the reader's input chunks.
    const bytes = new Uint8Array(segment.size);
    let at = 0;
    for (const part of segment.parts) {
      bytes.set(part, at);
      at += part.length;
    }
    const id = this.nextId++;
    const batch = new Promise<TextBatch>((resolve, reject) => {
      if (this.stopped) reject(this.stopped);
      else this.waiting.set(id, { resolve, reject });
    });
    this.output.push(batch);
    if (this.stopped) return;
    const request: SegmentRequest = {
      id,
      source: this.source,
      kind: this.kind(),
      bytes,
      ends: segment.ends,
      hashes: segment.hashes,
      firstRecord: segment.firstRecord,
    };
    this.port?.postMessage(request, [bytes.buffer]);
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
