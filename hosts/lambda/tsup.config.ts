import { defineConfig } from 'tsup';

/**
 * One self-contained ESM file for the Node Lambda runtime: every dependency bundled (the
 * runtime has no node_modules), workspace packages read from their TypeScript sources.
 */
export default defineConfig({
  entry: { handler: 'src/handler.ts' },
  format: ['esm'],
  outExtension: () => ({ js: '.mjs' }),
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: false,
  clean: true,
  sourcemap: false,
  dts: false,
  esbuildOptions(options) {
    options.conditions = ['catalogue-source', 'module', 'node', 'import'];
  },
  // Bundled CommonJS dependencies (ioredis, …) call require() on Node built-ins.
  banner: { js: "import { createRequire as __catalogueCreateRequire } from 'node:module';\nconst require = __catalogueCreateRequire(import.meta.url);" },
});
