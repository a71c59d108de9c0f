/** The generated types are those of the documents the service serves now (regenerate with `npm run generate -w @catalogue/client`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, renderTypes } from '../scripts/generate-types.js';

describe('generated client types', () => {
  for (const version of ['v1', 'v2'] as const) {
    it(`src/generated/${version}.ts is fresh`, async () => {
      expect(
        readFileSync(join(GENERATED_DIR, `${version}.ts`), 'utf8') === (await renderTypes(version)),
        'stale: run npm run generate -w @catalogue/client',
      ).toBe(true);
    });
  }
});
