import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // import.meta.url in the CommonJS build too (docs.ts resolves swagger-ui-dist from it).
  shims: true,
});
