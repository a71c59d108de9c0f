import { defineConfig } from 'tsup';

export default defineConfig({
  // buffered-logger: the process hosts' logger, its own entry so that the Lambda bundle (index) carries no sonic-boom.
  entry: { index: 'src/index.ts', 'buffered-logger': 'src/buffered-logger.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // import.meta.url in the CommonJS build too (docs.ts resolves swagger-ui-dist from it).
  shims: true,
});
