/**
 * A small pool of derived-data worker threads (derived-worker.ts): `run` hands a page's JSON
 * text to the least busy worker and resolves with its COPY text. With no threads (or where a
 * worker cannot be started) the page is computed on this thread, with the same result.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type PageKind, type PageOutput, pageOutput } from './derived-pages.js';
import type { DerivedReply, DerivedTask } from './derived-worker.js';

export interface DerivedThreads {
  run(kind: PageKind, json: string): Promise<PageOutput>;
  close(): Promise<void>;
}

/**
 * The worker's entry: the built file next to this bundle (tsup's `derived-worker` entry), or,
 * running from source, a bootstrap that registers tsx's loader in the worker (hooks given with
 * --import are not inherited by worker threads on Node 20), as the importer's dump reader does.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./derived-worker.js', import.meta.url));
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = new URL('./derived-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true, execArgv: ['--conditions=catalogue-source'] });
}

interface Lane {
  worker: Worker;
  pending: Map<number, { resolve: (output: PageOutput) => void; reject: (error: Error) => void }>;
}

export function startDerivedThreads(count: number): DerivedThreads {
  const lanes: Lane[] = [];
  for (let i = 0; i < count; i++) {
    let worker: Worker;
    try {
      worker = startWorker();
    } catch {
      break;
    }
    const lane: Lane = { worker, pending: new Map() };
    const failAll = (error: Error) => {
      for (const { reject } of lane.pending.values()) reject(error);
      lane.pending.clear();
      lanes.splice(lanes.indexOf(lane), 1);
    };
    worker.on('message', (reply: DerivedReply) => {
      const waiting = lane.pending.get(reply.id);
      if (!waiting) return;
      lane.pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(`derived-data worker: ${reply.error}`));
      else waiting.resolve({ documents: reply.documents, records: reply.records });
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => {
      if (lanes.includes(lane)) failAll(new Error(`the derived-data worker stopped with exit code ${code}`));
    });
    lanes.push(lane);
  }
  let nextId = 0;
  return {
    run(kind, json) {
      const lane = lanes.reduce<Lane | undefined>((best, candidate) => (!best || candidate.pending.size < best.pending.size ? candidate : best), undefined);
      if (!lane) return Promise.resolve().then(() => pageOutput(kind, json));
      const id = nextId++;
      return new Promise<PageOutput>((resolve, reject) => {
        lane.pending.set(id, { resolve, reject });
        lane.worker.postMessage({ id, kind, json } satisfies DerivedTask);
      });
    },
    async close() {
      const closing = lanes.splice(0);
      await Promise.all(closing.map((lane) => lane.worker.terminate()));
    },
  };
}
