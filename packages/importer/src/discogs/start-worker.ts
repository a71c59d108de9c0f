/**
 * Starts one of the importer's worker threads (dump-worker.ts, parse-helper-worker.ts) by its
 * file name: the built file next to this module, or, running from source, a bootstrap that
 * registers tsx's loader in the worker (hooks given with --import are not inherited by worker
 * threads on Node 20) and then imports the TypeScript source.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startImporterWorker(name: 'dump-worker' | 'parse-helper-worker', options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, import.meta.url), options);
  // require.resolve names tsx's CommonJS build; the worker imports its ES module twin.
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = new URL(`./${name}.ts`, import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: ['--conditions=catalogue-source'] });
}
