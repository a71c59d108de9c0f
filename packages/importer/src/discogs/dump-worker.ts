/**
 * The worker thread of the bulk import (issue 13): reads, decompresses, cuts, hashes, parses
 * and maps one dump file and posts COPY text in batches of about 1 MB, while the main thread
 * streams the previous batch into PostgreSQL, so both cores work. At most CREDITS batches are
 * in flight: the main thread hands a credit back once a batch is written, which bounds memory
 * whatever the file's size. See read-dump.ts for the main thread's side.
 */
import { createReadStream } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { BULK_ID, type BulkTable, bulkLine, connectPostgres } from '@catalogue/postgres';
import { DumpScanner, type KnownHashes } from './dump-scanner.js';
import { StoredHashes } from './known-hashes.js';
import { ImportError } from './record-error.js';

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
  | { type: 'error'; message: string; name: string; recordNumber?: number; recordId?: string | number | null };

const INFLATED_CHUNK_BYTES = 256 * 1024;

const port = parentPort;
if (!port) throw new Error('dump-worker.ts runs as a worker thread');
const data = workerData as DumpWorkerData;

let credits = data.credits;
let wake: (() => void) | null = null;
port.on('message', (message) => {
  if (message === 'credit') {
    credits += 1;
    wake?.();
    wake = null;
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
  const knownFor = (kind: string) => {
    if (!sql) return undefined;
    known = new StoredHashes(sql, kind, BULK_ID[kind as BulkTable]);
    return known;
  };
  const scanner = new DumpScanner(data.file, undefined, knownFor, ({ row, hash }) => {
    batch += bulkLine(scanner.kind as BulkTable, row as never, hash);
    records += 1;
  });
  const flush = async () => {
    if (!kindSent && scanner.kind) {
      kindSent = true;
      await post({ type: 'kind', kind: scanner.kind });
    }
    if (batch.length === 0) return;
    const text = batch;
    const count = records;
    batch = '';
    records = 0;
    // Its own ArrayBuffer (not a slice of Buffer's shared pool), so it can be transferred.
    const bytes = new Uint8Array(Buffer.byteLength(text));
    Buffer.from(bytes.buffer).write(text);
    await post({ type: 'batch', bytes, records: count, bytesRead });
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
        if (batch.length >= data.batchBytes) await flush();
      }
    } catch (error) {
      if (error instanceof ImportError) throw error;
      throw new ImportError({ source: data.file }, `cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    scanner.end();
    await flush();
    await post({ type: 'end', records: scanner.records, unchanged: scanner.unchanged });
  } finally {
    await sql?.end({ timeout: 5 });
  }
}

run().catch((error: unknown) => {
  const importError = error instanceof ImportError ? error : null;
  port.postMessage({
    type: 'error',
    name: importError ? 'ImportError' : error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    ...(importError ? { recordNumber: importError.recordNumber, recordId: importError.recordId } : {}),
  } satisfies DumpWorkerMessage);
});
