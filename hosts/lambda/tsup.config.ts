import { defineConfig } from 'tsup';

/**
 * The Lambda bundle for the Node runtime: every dependency bundled (the runtime has no
 * node_modules), workspace packages read from their TypeScript sources. handler.mjs carries
 * what serving needs (core, host-kit, the event mapping); what the configuration may ask for —
 * PostgreSQL, the Redis limiter, Stripe and mail, the demo catalogue's generator — sits in
 * chunks beside it, loaded by the import() of host-kit only when the environment names it.
 * Deploy the whole dist/ folder.
 */
export default defineConfig({
  entry: { handler: 'src/handler.ts' },
  format: ['esm'],
  outExtension: () => ({ js: '.mjs' }),
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  splitting: true,
  clean: true,
  sourcemap: false,
  dts: false,
  esbuildOptions(options) {
    options.conditions = ['catalogue-source', 'module', 'node', 'import'];
    options.chunkNames = 'chunks/[name]-[hash]';
  },
  // Bundled CommonJS dependencies (ioredis, …) call require() on Node built-ins.
  banner: { js: "import { createRequire as __catalogueCreateRequire } from 'node:module';\nconst require = __catalogueCreateRequire(import.meta.url);" },
});
