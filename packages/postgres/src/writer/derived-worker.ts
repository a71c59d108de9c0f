/**
 * A derived-data worker thread (issue 13): turns pages of rows into COPY text and COPYs it on
 * its own connection (derived-page-task.ts), so finish()'s JavaScript runs beside the main
 * thread. A page comes read (its JSON text, read in finish()'s transaction, which alone sees
 * the import's rows before it commits: issue 29) or as an id range it reads itself. A page is read, the one before computed and
 * the one before that COPYed at once, so PostgreSQL and this thread work side by side. See derived-threads.ts for the other side.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { connectPostgres } from '../connect.js';
import { writeOutput } from './derived-page-task.js';
import { type PageKind, type PageOutput, pageOutput } from './derived-pages.js';
import { type IdRange, readPage } from './derived-queries.js';

export interface DerivedWorkerData {
  databaseUrl: string;
}

export interface DerivedTask {
  id: number;
  kind: PageKind;
  /** The page's ids, read here; or its JSON text, read already. */
  page: { range: IdRange } | { json: string };
}

export type DerivedReply = { id: number } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('derived-worker.ts runs as a worker thread');
const { databaseUrl } = workerData as DerivedWorkerData;
// As the import's own pool (importer's cli/database.ts, through the same connectPostgres, so
// Nagle is off: each page ends two COPYs): no statement timeout, no JIT. Each page's COPY
// commits on its own, into a table dropped unless the whole pass completes, so no commit needs
// to wait for its WAL flush (about 0.5 ms each here, two per page).
const sql = connectPostgres(databaseUrl, { max: 2, statementTimeoutMs: 0, postgres: { connection: { jit: 'off', synchronous_commit: 'off' } } });

/**
 * Pages are computed in the order they came, each one's read started as soon as it arrives; a
 * page's COPY runs while the next one is computed (one output waits at most), so this thread
 * does not idle while PostgreSQL ingests.
 */
let computed: Promise<void> = Promise.resolve();
let copied: Promise<void> = Promise.resolve();
port.on('message', (task: DerivedTask | 'close') => {
  if (task === 'close') {
    void computed
      .then(() => copied)
      .then(() => sql.end({ timeout: 5 }))
      .then(() => port.close());
    return;
  }
  const reply = (error?: unknown) =>
    port.postMessage(
      error === undefined
        ? ({ id: task.id } satisfies DerivedReply)
        : ({ id: task.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies DerivedReply),
    );
  const read = 'json' in task.page ? Promise.resolve(task.page.json) : readPage(sql, task.kind, task.page.range);
  read.catch(() => undefined);
  computed = computed.then(async () => {
    let output: PageOutput;
    try {
      output = pageOutput(task.kind, await read);
    } catch (error) {
      reply(error);
      return;
    }
    const previous = copied;
    copied = previous.then(() => writeOutput(sql, output).then(() => reply(), reply));
    // The next page is computed only once the previous output is written: one waits at most.
    await previous;
  });
});
