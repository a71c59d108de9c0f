import { defineConfig } from 'tsup';

export default defineConfig({
  // pino: the process hosts' logger, its own entry so that the Lambda bundle (index) carries no pino.
  entry: { index: 'src/index.ts', 'pino-logger': 'src/pino-logger.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
