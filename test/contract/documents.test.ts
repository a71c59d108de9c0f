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

  it('describe every answer the service and its hosts give (issue 28 item 1)', async () => {
    const t = setup();
    const docs = await documentsOf(t);
    const cached = t.service.routes.filter((r) => r.cache && r.method === 'GET');
    expect(cached.length).toBeGreaterThan(20);
    for (const [version, doc] of Object.entries(docs)) {
      type Op = { parameters: Array<{ name: string; in: string; required?: boolean }>; responses: Record<string, Record<string, unknown> | { $ref: string }> };
      const paths = doc.paths as unknown as Record<string, Record<string, Op>>;
      for (const route of cached) {
        if (!route.path.startsWith(`/api/${version}`) && !route.tags.includes('health')) continue;
        const path = route.path.replace(/:(\w+)/g, '{$1}');
        const get = paths[path]?.get as Op;
        // 304 with its validators; If-None-Match a header parameter; the 200 names ETag and Cache-Control.
        expect(Object.keys((get.responses['304'] as { headers: object }).headers), path).toEqual(
          expect.arrayContaining(['ETag', 'Cache-Control', 'X-Request-Id']),
        );
        expect((get.responses['304'] as { content?: unknown }).content).toBeUndefined();
        expect(Object.keys((get.responses['200'] as { headers: object }).headers), path).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
        expect(get.parameters, path).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header' }));
      }
      for (const [path, item] of Object.entries(paths)) {
        // HEAD wherever GET is, OPTIONS on every path (204 with Allow).
        if (item.get) expect(item.head, `HEAD ${path}`).toBeDefined();
        expect(Object.keys((item.options?.responses['204'] as { headers?: object } | undefined)?.headers ?? {}), `OPTIONS ${path}`).toContain('Allow');
        for (const [method, op] of Object.entries(item)) {
          // The hosts' refusals, on every operation: 400 bad_request, 408, 413, 414 and 431.
          for (const status of ['408', '414', '431'])
            expect(op.responses[status], `${method} ${path} ${status}`).toEqual({ $ref: expect.stringMatching(/^#\/components\/responses\//) });
          // HEAD answers carry no body: their statuses are the GET's, described without content.
          const codes = (status: string) =>
            JSON.stringify(
              method === 'head' ? (op.responses[status] as { description?: string })?.description : (op.responses[status] as { content?: unknown })?.content,
            );
          expect(codes('400'), `${method} ${path}`).toContain('bad_request');
          expect(codes('413'), `${method} ${path}`).toContain('payload_too_large');
          // An empty path parameter (`/api/v1/label/`) names no route.
          if (path.includes('{') && method !== 'options') expect(codes('404'), `${method} ${path}`).toContain('route_not_found');
          // Every required parameter has an example a tool can send (Dredd refuses a document without).
          for (const p of op.parameters.filter((p) => p.required) as unknown as Array<{ name: string; example?: unknown }>)
            expect(p.example, `${method} ${path} ${p.name} example`).toBeDefined();
          for (const p of op.parameters.filter((p) => p.in === 'path') as unknown as Array<{
            name: string;
            schema: Record<string, unknown>;
            example?: unknown;
          }>) {
            expect(p.example, `${method} ${path} ${p.name}`).toBeDefined();
            expect(p.schema.pattern ?? p.schema.format ?? (p.schema.type === 'integer' ? 'integer' : undefined), `${method} ${path} ${p.name}`).toBeDefined();
          }
        }
      }
      const responses = (doc.components as unknown as { responses: Record<string, unknown> }).responses;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['RequestTimeout', 'UriTooLong', 'HeadersTooLarge']));
      // One enum of every code any route or host answers.
      const codes = (doc.components.schemas.ErrorCode as { enum: string[] }).enum;
      expect(codes).toEqual(
        expect.arrayContaining(['bad_request', 'headers_too_large', 'request_timeout', 'payload_too_large', 'unsupported_media_type', 'route_not_found']),
      );
    }
    const webhook = docs.v1.paths['/api/v1/stripe/webhook']?.post as unknown as {
      parameters: Array<{ name: string; in: string; required: boolean }>;
      requestBody: { content: Record<string, { schema: unknown }> };
      responses: Record<string, { headers?: object; content?: Record<string, { schema: unknown }> }>;
    };
    expect(webhook.requestBody.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/StripeEvent' });
    expect(webhook.parameters).toContainEqual(expect.objectContaining({ name: 'Stripe-Signature', in: 'header', required: true }));
    expect(webhook.responses['200']?.content?.['application/json']).toBeDefined();
    expect(Object.keys(webhook.responses).sort()).toEqual(expect.arrayContaining(['200', '400', '413', '503']));
    expect(Object.keys(webhook.responses['503']?.headers ?? {})).toContain('Retry-After');
    // JSON routes document the 415 they answer to another media type.
    for (const path of ['/api/v1/masters/batch', '/api/v1/admin/keys', '/api/v1/search-events/observed']) {
      expect(JSON.stringify(docs.v1.paths[path]?.post?.responses['415']), path).toContain('unsupported_media_type');
    }
  });

  it('examples come from the Discogs samples: no placeholder names, no "self" as a map key (issue 28 item 3)', async () => {
    const docs = await documentsOf(setup());
    for (const doc of Object.values(docs)) {
      const text = JSON.stringify(doc);
      expect(text).not.toMatch(/Marla Vance|marla-?vance/i);
      const examples: unknown[] = [];
      const collect = (node: unknown): void => {
        if (Array.isArray(node)) for (const n of node) collect(n);
        else if (node && typeof node === 'object') {
          for (const [k, v] of Object.entries(node)) {
            if (k === 'example') examples.push(v);
            else collect(v);
          }
        }
      };
      collect(doc.paths);
      const selfKeys: string[] = [];
      const walk = (node: unknown, where: string): void => {
        if (Array.isArray(node)) for (const [i, n] of node.entries()) walk(n, `${where}[${i}]`);
        else if (node && typeof node === 'object') {
          for (const [k, v] of Object.entries(node)) {
            // `_links.self` is a link relation; anywhere else "self" is a made-up map key.
            if (k === 'self' && !where.endsWith('_links')) selfKeys.push(where);
            walk(v, `${where}.${k}`);
          }
        }
      };
      for (const [i, e] of examples.entries()) walk(e, `example${i}`);
      expect(selfKeys).toEqual([]);
      expect(text).toContain('Vince Watson');
    }
  });
});
