/** GET {base}/openapi.json: the OpenAPI 3.1 document of a version, built from the route list. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { route } from '../../http/route.js';
import { buildOpenApi } from '../../openapi.js';
import { LIST_CACHE } from '../shared/cache.js';

/** The document itself is checked by an OpenAPI validator; here only its frame is described. */
export const OpenApiDocumentSchema = v.objectWithRest(
  {
    openapi: v.literal('3.1.0'),
    info: v.objectWithRest({ title: v.string(), version: v.string() }, v.unknown()),
    paths: v.record(v.string(), v.record(v.string(), v.unknown())),
  },
  v.unknown(),
);

export const openApiRoute = route({
  method: 'GET',
  path: '/openapi.json',
  access: 'public',
  cache: LIST_CACHE,
  summary: 'OpenAPI 3.1 description of this version',
  tags: ['meta'],
  responses: { 200: { description: 'The OpenAPI document.', schema: OpenApiDocumentSchema } },
  handler({ config, base, routes }) {
    return json(
      buildOpenApi(routes, {
        version: base.slice(5) as 'v1' | 'v2',
        baseUrl: config.baseUrl,
        // The health probes sit at the root, outside both versions, and belong to both documents.
        include: (r) => r.path === base || r.path.startsWith(`${base}/`) || r.tags.includes('health'),
      }),
    );
  },
});
