/**
 * Wayfind, the v1 → v2 migration helper (operational: stays on v1, key required).
 * `GET /api/v1/wayfind?path=<v1 path and query>` says what becomes of a v1 call: the same call
 * on /api/v2 (keeper), where its data went (demoted: the route's own deprecation), or nothing
 * (operational). wayfind-master.ts answers where one master sits.
 */
import * as v from 'valibot';
import { invalidQuery } from '../../errors/api-error.js';
import { json } from '../../http/json.js';
import type { Method, RouteDef } from '../../http/route.js';
import { route } from '../../http/route.js';
import { createRouter, type Router } from '../../http/router.js';
import { named } from '../../schemas/named.js';
import { textParam } from '../../validation/params.js';
import { isV1Path, routeKind, successorOf, v2PathOf } from '../../versioning.js';
import { parseMasterId } from '../shared/keys.js';
import { masterDeprecation } from './deprecations.js';
import { locateMaster } from './locate-master.js';
import { masterNotFound } from './master-answers.js';

export const WayfindSchema = named(
  'Wayfind',
  v.object({
    from: v.pipe(v.string(), v.description('The v1 path and query asked about.')),
    kind: v.pipe(
      v.picklist(['keeper', 'demoted', 'operational']),
      v.description('keeper: same call on /api/v2; demoted: the data moved into a v2 facet; operational: stays on /api/v1.'),
    ),
    to: v.pipe(v.string(), v.description('Path and query to call instead (the same path for an operational route).')),
    method: v.pipe(v.picklist(['GET', 'POST', 'DELETE', 'PUT', 'PATCH']), v.description('Method to use on `to`.')),
    note: v.string(),
  }),
);

/** The v1 routes' router, built once per route list. */
const v1Routers = new WeakMap<readonly RouteDef[], Router>();
function v1RouterOf(routes: readonly RouteDef[]): Router {
  let router = v1Routers.get(routes);
  if (!router) {
    router = createRouter(routes.filter((r) => isV1Path(r.path)));
    v1Routers.set(routes, router);
  }
  return router;
}

export const wayfindRoute = route({
  method: 'GET',
  path: '/api/v1/wayfind',
  access: 'key',
  summary: 'Migration helper: what becomes of a v1 call in v2',
  description: 'path is a v1 path with its query, e.g. /api/v1/masters/113 or /api/v1/search?q=house. method defaults to the only method of the path, or GET.',
  tags: ['migration'],
  query: {
    path: { schema: textParam(2000, 'A v1 path and query, starting with /api/v1.') },
    method: {
      schema: v.optional(
        v.pipe(
          v.picklist(['GET', 'POST', 'DELETE', 'PUT', 'PATCH'], 'must be GET, POST, DELETE, PUT or PATCH'),
          v.description('Method of the v1 call. Default: the path’s only method, or GET.'),
        ),
      ),
    },
  },
  responses: { 200: { description: 'Where the call goes.', schema: WayfindSchema } },
  errors: ['invalid_query', 'master_not_found'],
  async handler({ query, config, ports, lifetime, routes }) {
    if (!query.path.startsWith('/')) throw invalidQuery([{ path: 'path', message: 'must be a path starting with /api/v1' }]);
    const url = new URL(query.path, config.baseUrl);
    if (!isV1Path(url.pathname)) throw invalidQuery([{ path: 'path', message: 'must be a path starting with /api/v1' }]);
    const match = v1RouterOf(routes).match(url);
    if (!match) throw invalidQuery([{ path: 'path', message: `no v1 route matches ${url.pathname}` }]);
    const methods = [...match.byMethod.keys()];
    const method: Method = query.method ?? (methods.length === 1 ? (methods[0] as Method) : 'GET');
    const def = match.byMethod.get(method);
    if (!def) throw invalidQuery([{ path: 'method', message: `${method} is not a method of ${url.pathname}; it takes ${methods.join(', ')}` }]);
    const from = url.pathname + url.search;
    const kind = routeKind(def, routes);
    if (kind === 'keeper') {
      return json({
        from,
        kind,
        to: v2PathOf(url.pathname) + url.search,
        method,
        note: 'Same call, same answer shape, on /api/v2. After the v1 sunset, /api/v1 answers 308 to it.',
      });
    }
    if (kind === 'operational') {
      return json({ from, kind, to: from, method, note: 'Operational route: it is not versioned and stays on /api/v1, unchanged by the cutover.' });
    }
    const where = def.deprecation?.where ?? '';
    if (def.deprecation === masterDeprecation) {
      const id = parseMasterId(match.params.id ?? null);
      const located = await locateMaster(ports.catalogue, id, lifetime);
      if (!located) throw masterNotFound(id);
      const pointer = located.index === null ? 'the discography facet' : `JSON pointer /discography/masters/${located.index}`;
      return json({
        from,
        kind,
        to: located.to,
        method: 'GET',
        note: `Master ${id} sits in the discography of ${located.artist.name}, at ${pointer} (record under master, releases under releases). After the v1 sunset this route answers 410.`,
      });
    }
    return json({
      from,
      kind,
      to: successorOf(def, kind, match.params, url) as string,
      method: 'GET',
      note: `${where} After the v1 sunset this route answers 410.`,
    });
  },
});
