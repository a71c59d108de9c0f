/** GET {base}/openapi.json: the OpenAPI 3.1 document of a version, built from the route list. */
import * as v from 'valibot';
import { json } from '../../http/json.js';
import { type RouteDef, route } from '../../http/route.js';
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

/**
 * The documents depend only on the route list and the configuration, so each is built once per
 * service and base (building converts every schema: tens of milliseconds).
 */
const built = new WeakMap<readonly RouteDef[], Map<string, Record<string, unknown>>>();

function documentFor(routes: readonly RouteDef[], base: string, baseUrl: string): Record<string, unknown> {
  let byBase = built.get(routes);
  if (!byBase) {
    byBase = new Map();
    built.set(routes, byBase);
  }
  const key = `${base} ${baseUrl}`;
  let doc = byBase.get(key);
  if (!doc) {
    doc = buildOpenApi(routes, {
      version: base.slice(5) as 'v1' | 'v2',
      baseUrl,
      // The health probes sit at the root, outside both versions, and belong to both documents.
      include: (r) => r.path === base || r.path.startsWith(`${base}/`) || r.tags.includes('health'),
    });
    byBase.set(key, doc);
  }
  return doc;
}

export const openApiRoute = route({
  method: 'GET',
  path: '/openapi.json',
  access: 'public',
  cache: LIST_CACHE,
  summary: 'OpenAPI 3.1 description of this version',
  tags: ['meta'],
  responses: { 200: { description: 'The OpenAPI document.', schema: OpenApiDocumentSchema } },
  handler({ config, base, routes }) {
    return json(documentFor(routes, base, config.baseUrl));
  },
});
