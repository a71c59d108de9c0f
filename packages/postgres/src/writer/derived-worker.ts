/**
 * A derived-data worker thread (issue 13): turns the JSON text of a page of rows into COPY
 * text (derived-pages.ts), so finish()'s JavaScript runs beside the main thread, which only
 * moves text between PostgreSQL and the workers. See derived-threads.ts for the other side.
 */
import { parentPort } from 'node:worker_threads';
import { type PageKind, pageOutput } from './derived-pages.js';

export interface DerivedTask {
  id: number;
  kind: PageKind;
  json: string;
}

export type DerivedReply = { id: number; documents: string; records: string } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('derived-worker.ts runs as a worker thread');
port.on('message', (task: DerivedTask) => {
  try {
    port.postMessage({ id: task.id, ...pageOutput(task.kind, task.json) } satisfies DerivedReply);
  } catch (error) {
    port.postMessage({ id: task.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies DerivedReply);
  }
});
