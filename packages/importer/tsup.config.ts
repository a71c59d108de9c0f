import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'generate/index': 'src/generate/index.ts', 'seed/index': 'src/seed/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // import.meta.url in the CommonJS build too: the worker threads are found from it (issue 30 item 11).
  shims: true,
});
