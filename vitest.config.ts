import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `catalogue-source`
// export condition, so tests never need a build first.
const conditions = ['catalogue-source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['catalogue-source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'hosts/*/src/**/*.test.ts', 'hosts/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
