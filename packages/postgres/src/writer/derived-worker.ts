/**
 * A derived-data worker thread (issue 13): reads pages of rows on its own connection, turns
 * them into COPY text and COPYs it (derived-page-task.ts), so finish()'s JavaScript runs beside
 * the main thread, which only hands out id ranges. A page is read while the previous one is
 * computed, so PostgreSQL and this thread work at once. See derived-threads.ts for the other side.
 */
import { parentPort, workerData } from 'node:worker_threads';
import postgres from 'postgres';
import { writePage } from './derived-page-task.js';
import type { PageKind } from './derived-pages.js';
import { type IdRange, readPage } from './derived-queries.js';

export interface DerivedWorkerData {
  databaseUrl: string;
}

export interface DerivedTask {
  id: number;
  kind: PageKind;
  range: IdRange;
}

export type DerivedReply = { id: number } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('derived-worker.ts runs as a worker thread');
const { databaseUrl } = workerData as DerivedWorkerData;
// As the import's own pool (importer's cli/database.ts): no statement timeout, no JIT.
const sql = postgres(databaseUrl, { max: 2, onnotice: () => undefined, connection: { application_name: 'catalogue', jit: 'off', statement_timeout: 0 } });

/** Pages are written in the order they came; each one's read starts as soon as it arrives. */
let written: Promise<void> = Promise.resolve();
port.on('message', (task: DerivedTask | 'close') => {
  if (task === 'close') {
    void written.then(() => sql.end({ timeout: 5 })).then(() => port.close());
    return;
  }
  const read = readPage(sql, task.kind, task.range);
  read.catch(() => undefined);
  written = written.then(async () => {
    try {
      await writePage(sql, task.kind, await read);
      port.postMessage({ id: task.id } satisfies DerivedReply);
    } catch (error) {
      port.postMessage({ id: task.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies DerivedReply);
    }
  });
});
