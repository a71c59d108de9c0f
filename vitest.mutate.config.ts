import { defineConfig } from 'vitest/config';

/**
 * The tests Stryker runs for `npm run mutate` (stryker.config.json): the pure modules' own specs
 * beside them and the memory catalogue's conformance run. Each mutant is tested by re-running the
 * tests that covered it, so only fast, deterministic tests belong here: nothing that needs
 * PostgreSQL, Redis, a host process or a browser.
 */
const conditions = ['catalogue-source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['catalogue-source'] } },
  test: {
    include: ['packages/core/src/**/*.test.ts', 'test/conformance/catalogue-memory.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
  },
});
