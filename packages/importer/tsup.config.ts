import { defineConfig } from 'tsup';

export default defineConfig({
  // The worker threads of the bulk import, loaded next to the bundle (discogs/start-worker.ts).
  entry: {
    index: 'src/index.ts',
    'generate/index': 'src/generate/index.ts',
    'seed/index': 'src/seed/index.ts',
    'dump-worker': 'src/discogs/dump-worker.ts',
    'parse-helper-worker': 'src/discogs/parse-helper-worker.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // import.meta.url in the CommonJS build too: the worker threads are found from it (issue 30 item 11).
  shims: true,
});
