import { defineConfig } from 'tsup';

export default defineConfig({
  // derived-worker: the derived-data worker thread, loaded next to the bundle (writer/derived-threads.ts).
  // bulk-rows: the COPY lines alone, for the importer's parse helper thread, which needs nothing else.
  entry: { index: 'src/index.ts', embedded: 'src/embedded.ts', 'derived-worker': 'src/writer/derived-worker.ts', 'bulk-rows': 'src/bulk/bulk-rows.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // import.meta.url in the CommonJS build too: the worker threads are found from it (issue 30 item 11).
  shims: true,
});
