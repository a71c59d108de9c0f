/** The generated types are those of the documents the service serves now (regenerate with `npm run generate -w @catalogue/client`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestService } from '@catalogue/core/memory';
import createClient from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { GENERATED_DIR, renderTypes } from '../scripts/generate-types.js';
import type { paths as V1 } from './generated/v1.js';
import type { paths as V2 } from './generated/v2.js';

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

describe('a conditional GET through the generated types (issue 28)', () => {
  it('sees 304 as a typed answer: its ETag and Cache-Control, no body; If-None-Match is a typed header parameter', async () => {
    type Master = V1['/api/v1/masters/{id}']['get'];
    expectTypeOf<Master['responses'][304]['headers']['ETag']>().toEqualTypeOf<string>();
    expectTypeOf<Master['responses'][304]['headers']['Cache-Control']>().toEqualTypeOf<string>();
    expectTypeOf<Master['responses'][304]['content']>().toEqualTypeOf<undefined>();
    expectTypeOf<NonNullable<Master['parameters']['header']>['If-None-Match']>().toEqualTypeOf<string | undefined>();
    type Artist = V2['/api/v2/artist/{key}']['get'];
    expectTypeOf<Artist['responses']>().toHaveProperty(304);

    const service = createTestService();
    const key = await service.issueKey();
    const client = createClient<V2>({ baseUrl: 'http://catalogue.test', fetch: (request) => service.fetch(request), headers: { 'X-API-Key': key } });
    // The field map is there in any catalogue, an empty one included.
    const first = await client.GET('/api/v2/dossier/manifest');
    expect(first.response.status).toBe(200);
    const etag: string | null = first.response.headers.get('etag');
    const again = await client.GET('/api/v2/dossier/manifest', { params: { header: { 'If-None-Match': etag ?? '' } } });
    expect(again.response.status).toBe(304);
    // openapi-fetch hands a status outside 2xx to `error` (here the empty body); no data.
    expect(again.data).toBeUndefined();
    expect(await again.response.text()).toBe('');
  });
});
