import { defineConfig } from 'vitest/config';

// Inside this workspace the packages resolve to their TypeScript sources; an app that
// installed @catalogue/core from npm needs no config at all.
const conditions = ['catalogue-source', 'module', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['catalogue-source'] } },
  test: { include: ['*.test.ts'] },
});
