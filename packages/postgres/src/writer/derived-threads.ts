/**
 * A small pool of derived-data worker threads (derived-worker.ts), each with its own
 * connection: `run` hands a page's id range to the least busy worker and resolves once the
 * page is written. Without a database URL (a pool the caller made), or where a worker cannot
 * be started, pages are read, computed and written on this thread, with the same result.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Sql } from 'postgres';
import { processPage, writePage } from './derived-page-task.js';
import type { PageKind } from './derived-pages.js';
import type { IdRange } from './derived-queries.js';
import type { DerivedReply, DerivedTask, DerivedWorkerData } from './derived-worker.js';

export interface DerivedThreads {
  /** Workers running (0: pages are done on this thread). */
  readonly size: number;
  /** A page by its ids (read by the worker) or read already (its JSON text). */
  run(kind: PageKind, page: { range: IdRange } | { json: string }): Promise<void>;
  /** Lets the workers finish and stop (abort: stop them now). */
  close(abort?: boolean): Promise<void>;
}

/**
 * Each worker's heap, kept small: a page's objects die young, and with V8's defaults each
 * worker's heap grew to ~140 MB between collections (the loader's goal is 300 MB, issue 13). A
 * page of 1,000 masters needs a few MB; the old-generation cap leaves ten times that.
 */
const LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 };

/**
 * The worker's entry: the built file next to this bundle (tsup's `derived-worker` entry), or,
 * running from source, a bootstrap that registers tsx's loader in the worker (hooks given with
 * --import are not inherited by worker threads on Node 20), as the importer's dump reader does.
 */
function startWorker(workerData: DerivedWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./derived-worker.js', import.meta.url), { workerData, resourceLimits: LIMITS });
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = new URL('./derived-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true, workerData, execArgv: ['--conditions=catalogue-source'], resourceLimits: LIMITS });
}

interface Lane {
  worker: Worker;
  pending: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
}

export function startDerivedThreads(sql: Sql, count: number, databaseUrl: string | undefined): DerivedThreads {
  const lanes: Lane[] = [];
  for (let i = 0; databaseUrl && i < count; i++) {
    let worker: Worker;
    try {
      worker = startWorker({ databaseUrl });
    } catch {
      break;
    }
    const lane: Lane = { worker, pending: new Map() };
    const failAll = (error: Error) => {
      for (const { reject } of lane.pending.values()) reject(error);
      lane.pending.clear();
    };
    worker.on('message', (reply: DerivedReply) => {
      const waiting = lane.pending.get(reply.id);
      if (!waiting) return;
      lane.pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(`derived-data worker: ${reply.error}`));
      else waiting.resolve();
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the derived-data worker stopped with exit code ${code}`)));
    lanes.push(lane);
  }
  let nextId = 0;
  return {
    size: lanes.length,
    run(kind, page) {
      const lane = lanes.reduce<Lane | undefined>((best, candidate) => (!best || candidate.pending.size < best.pending.size ? candidate : best), undefined);
      if (!lane) return 'json' in page ? writePage(sql, kind, page.json) : processPage(sql, kind, page.range);
      const id = nextId++;
      return new Promise<void>((resolve, reject) => {
        lane.pending.set(id, { resolve, reject });
        lane.worker.postMessage({ id, kind, page } satisfies DerivedTask);
      });
    },
    async close(abort = false) {
      await Promise.all(
        lanes.splice(0).map(async ({ worker }) => {
          if (abort) return void (await worker.terminate());
          const exited = once(worker, 'exit');
          worker.postMessage('close');
          // A worker that does not stop within 10 s (a stuck connection) is stopped.
          const timer = setTimeout(() => void worker.terminate(), 10_000);
          await exited.catch(() => undefined);
          clearTimeout(timer);
        }),
      );
    },
  };
}
