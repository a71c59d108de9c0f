import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'memory/index': 'src/memory/index.ts', 'catalogue/index': 'src/catalogue/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
