/**
 * The main thread's side of parse-helper-worker.ts: one helper thread for an import, started
 * once a lane has no file left (cli/import-discogs-bulk.ts) and connected to each reader still
 * running by a MessagePort of its own (issue 29): the releases reader, the largest file, read
 * alone for its second half, hands it what it cannot parse itself, and the idle core works.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { startImporterWorker } from './start-worker.js';

export interface ParseHelper {
  /** A port for one reader (DumpReading.useHelper). */
  connect(): MessagePort;
  stop(): Promise<void>;
}

/**
 * Its heap holds a segment (about 1 MB of records) and its COPY text, whose objects die young;
 * the small old generation keeps the loader within its 300 MB goal (issue 13).
 */
const LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 32 };

export function startParseHelper(): ParseHelper {
  const worker = startImporterWorker('parse-helper-worker', { resourceLimits: LIMITS });
  // A helper that fails closes its ports: each reader then fails its import (dump-worker.ts).
  worker.on('error', () => undefined);
  return {
    connect() {
      const { port1, port2 } = new MessageChannel();
      worker.postMessage({ reader: port2 }, [port2]);
      return port1;
    },
    // Terminating a thread that has already ended does nothing.
    async stop() {
      await worker.terminate();
    },
  };
}
