/**
 * The main thread's side of dump-worker.ts: starts the worker on one file and exposes its
 * output as the dump's kind and an async iterable of COPY text batches. Each batch taken is
 * credited back once the consumer asks for the next one (it has been written by then), so the
 * worker is at most CREDITS batches ahead.
 */
import type { MessagePort } from 'node:worker_threads';
import type { BulkTable } from '@catalogue/postgres';
import type { DumpWorkerData, DumpWorkerMessage } from './dump-worker.js';
import { importErrorFrom } from './record-error.js';
import { startImporterWorker } from './start-worker.js';

const BATCH_BYTES = 1 << 20;
const CREDITS = 3;

export interface DumpReading {
  /** The dump's table, read from its root element. */
  kind: Promise<BulkTable>;
  batches: AsyncIterable<{ bytes: Uint8Array; records: number }>;
  /** Records read and skipped as unchanged, once the batches are exhausted. */
  totals(): { records: number; unchanged: number };
  /** Bytes of the (compressed) file read so far. */
  bytesRead(): number;
  /** Gives the reader a parse helper's port (parse-helper.ts): it hands segments of records to it from then on. */
  useHelper(helper: MessagePort): void;
  stop(): Promise<void>;
}

/**
 * Small generations: the parser's objects die young, and two files are read at once (the
 * loader's goal is 300 MB, issue 13). Uncapped, each reader's old generation grew ~100 MB
 * before a full collection: bench:import at 100 k peaked at 405–414 MB with two readers, and
 * 297 MB capped as here, in the same time (a cap of 32 MB doubled the CPU in collections). A
 * record's data is a few MB at most: the subtrees no row reads are cut before parsing
 * (dump-scanner.ts).
 */
const LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 48 };

/**
 * Reads `file` in a worker; `databaseUrl`: where stored hashes are read (a re-import skips
 * unchanged records).
 */
export function readDumpInWorker(file: string, databaseUrl?: string): DumpReading {
  const data: DumpWorkerData = { file, batchBytes: BATCH_BYTES, credits: CREDITS, ...(databaseUrl ? { databaseUrl } : {}) };
  const worker = startImporterWorker('dump-worker', { workerData: data, resourceLimits: LIMITS });
  const queue: DumpWorkerMessage[] = [];
  let notify: (() => void) | null = null;
  let failure: Error | null = null;
  let exited = false;
  let resolveKind: (kind: BulkTable) => void = () => undefined;
  let rejectKind: (error: Error) => void = () => undefined;
  const kind = new Promise<BulkTable>((resolve, reject) => {
    resolveKind = resolve;
    rejectKind = reject;
  });
  kind.catch(() => undefined);
  let totals = { records: 0, unchanged: 0 };
  let bytesRead = 0;

  const fail = (error: Error) => {
    failure ??= error;
    rejectKind(error);
    notify?.();
  };
  worker.on('message', (message: DumpWorkerMessage) => {
    if (message.type === 'kind') resolveKind(message.kind);
    else if (message.type === 'error') {
      fail(importErrorFrom(file, message));
    } else queue.push(message);
    notify?.();
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => {
    exited = true;
    if (code !== 0) fail(new Error(`the dump reader stopped with exit code ${code}`));
    notify?.();
  });

  async function* batches(): AsyncGenerator<{ bytes: Uint8Array; records: number }> {
    for (;;) {
      const message = queue.shift();
      if (message?.type === 'batch') {
        bytesRead = message.bytesRead;
        yield { bytes: message.bytes, records: message.records };
        worker.postMessage('credit');
        continue;
      }
      if (message?.type === 'end') {
        totals = { records: message.records, unchanged: message.unchanged };
        return;
      }
      if (failure) throw failure;
      if (exited) throw new Error('the dump reader stopped before the end of the file');
      await new Promise<void>((resolve) => (notify = resolve));
      notify = null;
    }
  }

  return {
    kind,
    batches: batches(),
    totals: () => totals,
    bytesRead: () => bytesRead,
    useHelper(helper) {
      if (exited) helper.close();
      else worker.postMessage({ helper }, [helper]);
    },
    async stop() {
      if (!exited) await worker.terminate();
    },
  };
}
