import { json } from '../../http/json.js';
import { route, type RouteDef } from '../../http/route.js';
import { buildOpenApi } from '../../openapi.js';

export const rootRoute = (base: string, routes: () => readonly RouteDef[]) =>
  route({
    method: 'GET',
    path: base,
    access: 'public',
    summary: 'Self-describing root index',
    tags: ['meta'],
    responses: { 200: { description: 'Links to the documentation and every route of this version.' } },
    handler({ config }) {
      const list = routes().filter((r) => r.path.startsWith(base) && r.access !== 'admin');
      return json({
        name: 'Music Catalogue Data Service',
        version: base.slice(5),
        authentication: 'Send your API key in the X-API-Key header.',
        _links: { self: config.baseUrl + base, openapi: `${config.baseUrl}${base}/openapi.json`, docs: `${config.baseUrl}/docs` },
        routes: list.map((r) => ({ method: r.method, path: r.path.replace(/:(\w+)/g, '{$1}'), auth: r.access === 'public' || r.access === 'open' ? 'none' : 'key', summary: r.summary })),
      });
    },
  });

export const openApiRoute = (base: string, routes: () => readonly RouteDef[]) =>
  route({
    method: 'GET',
    path: `${base}/openapi.json`,
    access: 'public',
    summary: 'OpenAPI 3.1 description of this version',
    tags: ['meta'],
    responses: { 200: { description: 'The OpenAPI document.' } },
    handler({ config }) {
      return json(buildOpenApi(routes(), { version: base.slice(5) as 'v1' | 'v2', baseUrl: config.baseUrl, include: (r) => r.path.startsWith(base) }));
    },
  });
