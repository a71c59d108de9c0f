/**
 * The worker thread of the bulk import (issue 13): reads, decompresses, cuts, hashes, parses
 * and maps one dump file and posts COPY text in batches of about 1 MB, while the main thread
 * streams the previous batch into PostgreSQL, so both cores work. At most CREDITS batches are
 * in flight: the main thread hands a credit back once a batch is written, which bounds memory
 * whatever the file's size. See read-dump.ts for the main thread's side.
 */
import { createReadStream } from 'node:fs';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { BULK_ID, type BulkTable, bulkLine, connectPostgres } from '@catalogue/postgres';
import { DumpScanner, type KnownHashes } from './dump-scanner.js';
import type { DiscogsKind } from './kinds.js';
import { StoredHashes } from './known-hashes.js';
import { transferableUtf8 } from './parse-segment.js';
import { ImportError, type PostedError, postedError } from './record-error.js';
import { SeenSlugBases } from './seen-slug-bases.js';
import { OrderedBatches, SegmentHandOff } from './segment-hand-off.js';

export interface DumpWorkerData {
  file: string;
  /** Where the stored hashes are read (a re-import skips unchanged records); none: parse all. */
  databaseUrl?: string;
  batchBytes: number;
  credits: number;
}

export type DumpWorkerMessage =
  | { type: 'kind'; kind: BulkTable }
  | { type: 'batch'; bytes: Uint8Array; records: number; bytesRead: number }
  | { type: 'end'; records: number; unchanged: number }
  | ({ type: 'error' } & PostedError);

const INFLATED_CHUNK_BYTES = 256 * 1024;
/** Batches made or being made beyond which the reader waits for the first to be posted. */
const MAX_QUEUED = 4;

const port = parentPort;
if (!port) throw new Error('dump-worker.ts runs as a worker thread');
const data = workerData as DumpWorkerData;

let credits = data.credits;
let wake: (() => void) | null = null;
/** The parse helper's port, when the import gives this reader one (read-dump.ts, useHelper). */
let helper: MessagePort | null = null;
let helperArrived: ((helper: MessagePort) => void) | null = null;
port.on('message', (message: 'credit' | { helper: MessagePort }) => {
  if (message === 'credit') {
    credits += 1;
    wake?.();
    wake = null;
  } else {
    helper = message.helper;
    helperArrived?.(helper);
  }
});

/**
 * A batch goes as UTF-8 bytes whose buffer is transferred, not a string copied into the main
 * thread's heap: there every 1 MB string lived until a full collection, and with two files read
 * at once the loader's heap grew past its 300 MB goal (issue 13). The bytes are what the COPY
 * socket writes anyway, encoded here instead of on the main thread.
 */
async function post(message: DumpWorkerMessage): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  if (message.type === 'batch') {
    credits -= 1;
    port?.postMessage(message, [message.bytes.buffer as ArrayBuffer]);
    return;
  }
  port?.postMessage(message);
}

async function run(): Promise<void> {
  // The service's pool settings (Nagle off among them), with no statement timeout, as the import's own pool.
  const sql = data.databaseUrl ? connectPostgres(data.databaseUrl, { max: 1, statementTimeoutMs: 0 }) : null;
  let known: KnownHashes | undefined;
  let batch = '';
  let records = 0;
  let bytesRead = 0;
  let kindSent = false;
  // An agent's slug is loaded as the reader guesses it (bulk-rows.ts, SlugBasesSeen); segments
  // parsed by the helper load their agents with their bases, and the first import's slugs correct them.
  let bases: SeenSlugBases | undefined;
  const knownFor = (kind: string) => {
    if (kind === 'artists' || kind === 'labels') bases = new SeenSlugBases();
    if (!sql) return undefined;
    known = new StoredHashes(sql, kind, BULK_ID[kind as BulkTable]);
    return known;
  };
  // The COPY text in the file's order: this thread's own batches and the helper's segments.
  const output = new OrderedBatches();
  const closeLocal = () => {
    // A segment being gathered holds records before any text made here since it began.
    handOff.flush();
    if (batch.length === 0) return;
    output.push(Promise.resolve({ bytes: transferableUtf8(batch), records }));
    batch = '';
    records = 0;
  };
  const handOff = new SegmentHandOff(data.file, () => scanner.kind as DiscogsKind, output, closeLocal);
  if (helper) handOff.attach(helper);
  helperArrived = (port) => handOff.attach(port);
  const scanner: DumpScanner = new DumpScanner(
    data.file,
    undefined,
    knownFor,
    ({ row, hash }) => {
      batch += bulkLine(scanner.kind as BulkTable, row as never, hash, bases);
      records += 1;
    },
    handOff.offer,
  );
  /** Posts the batches ready at the head; waits for the head when `all`, or when too many are queued. */
  const pump = async (all: boolean) => {
    if (!kindSent && scanner.kind) {
      kindSent = true;
      await post({ type: 'kind', kind: scanner.kind });
    }
    while (output.length > 0 && (all || output.length > MAX_QUEUED || output.headReady())) {
      const next = await output.shift();
      await post({ type: 'batch', bytes: next.bytes, records: next.records, bytesRead });
    }
  };
  const scanAll = async () => {
    for (;;) {
      if (scanner.scan() === 'need-input') return;
      await (known as KnownHashes).loadMore();
    }
  };
  try {
    const raw = createReadStream(data.file, { highWaterMark: 1 << 20 });
    raw.on('data', (chunk) => {
      bytesRead += chunk.length;
    });
    // Inflated in 256 KB pieces, not zlib's default 16 KB: each piece is a push into the scanner
    // (a copy of the unfinished record, a scan) and a turn of the stream. Measured on an
    // unchanged releases file (re-import, 500,000 records, load 4–6): 16.4–17.0 s with 16 KB,
    // 13.4 s with 256 KB, 12.7–12.8 s with 1 MB; the loader's peak RSS did not tell 256 KB and
    // 1 MB apart (304 and 305 MB, bench:import's 2020-08 mix), so the smaller pieces.
    const source = data.file.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: INFLATED_CHUNK_BYTES })) : raw;
    raw.on('error', (error) => source.destroy(error));
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        scanner.push(chunk);
        await scanAll();
        if (batch.length >= data.batchBytes) closeLocal();
        await pump(false);
      }
      scanner.end();
      closeLocal();
    } catch (error) {
      // Failing here, a segment before the failing record may hold an error of its own: the
      // first in the file is the one reported. (A refused segment's error is that first one.)
      if (!output.refused) {
        handOff.flush();
        await output.settleAll();
      }
      if (error instanceof ImportError) throw error;
      throw new ImportError({ source: data.file }, `cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    await pump(true);
    await post({ type: 'end', records: scanner.records, unchanged: scanner.unchanged });
  } finally {
    handOff.close();
    await sql?.end({ timeout: 5 });
  }
}

run().catch((error: unknown) => {
  port.postMessage({ type: 'error', ...postedError(error) } satisfies DumpWorkerMessage);
});
