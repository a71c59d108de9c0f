/** Both OpenAPI documents are valid OpenAPI 3.1 (checked by a validator no one here wrote) and complete. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';
import { documentsOf } from './support.js';

describe('OpenAPI documents', () => {
  it('v1 and v2 validate against the OpenAPI 3.1 schema', async () => {
    const docs = await documentsOf(setup());
    for (const [name, doc] of Object.entries(docs)) {
      const validator = new Validator();
      const result = await validator.validate(doc as never);
      expect({ name, valid: result.valid, errors: result.errors }).toEqual({ name, valid: true, errors: undefined });
      expect(validator.version).toBe('3.1');
    }
  });

  it('a broken document is refused by the same validator (the check can fail)', async () => {
    const { v2 } = await documentsOf(setup());
    const broken = structuredClone(v2) as unknown as { paths: Record<string, Record<string, { responses: unknown }>> };
    (broken.paths['/api/v2/search'] as Record<string, { responses: unknown }>).get = { responses: 'none' };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
  });

  it('documents every route of its version, the key scheme and the headers', async () => {
    const t = setup();
    const docs = await documentsOf(t);
    for (const route of t.service.routes) {
      const version = /^\/api\/(v[12])(\/|$)/.exec(route.path)?.[1] as 'v1' | 'v2' | undefined;
      if (!version) continue;
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(docs[version].paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    for (const doc of Object.values(docs)) {
      expect(doc.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }));
      expect(Object.keys(doc.components.headers)).toEqual(
        expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Search-Latency-Ms', 'Retry-After']),
      );
    }
    // A document keeps only the components it uses: the cutover's headers are v1's alone.
    expect(Object.keys(docs.v1.components.headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link', 'Location']));
    expect(Object.keys(docs.v2.components.headers)).not.toEqual(expect.arrayContaining(['Deprecation']));
    const search = docs.v1.paths['/api/v1/search']?.get;
    expect(Object.keys(search?.responses['200']?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-Search-Latency-Ms', 'Deprecation', 'Sunset', 'Link']),
    );
    expect(search?.responses['308']?.headers).toHaveProperty('Location');
    expect(docs.v1.paths['/api/v1/masters/{id}']?.get?.responses['410']).toBeDefined();
    expect(docs.v1.paths['/api/v1/usage']?.get?.responses['200']?.headers).not.toHaveProperty('Deprecation');
    expect(docs.v2.paths['/api/v2/search']?.get?.responses['200']?.headers).not.toHaveProperty('Deprecation');
    expect(docs.v2.paths['/api/v2/search-events/observed']?.post?.security).toEqual([{ BeaconToken: [] }]);
    const fields = docs.v2.paths['/api/v2/artist/{key}']?.get?.parameters.find((p) => p.name === 'fields');
    expect(fields).toMatchObject({ in: 'query', required: false });
  });
});
