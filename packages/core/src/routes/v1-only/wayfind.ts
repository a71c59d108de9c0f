/**
 * Wayfind, the v1 → v2 migration helper (operational: stays on v1, key required).
 * `GET /api/v1/wayfind?path=<v1 path and query>` says what becomes of a v1 call;
 * `GET /api/v1/wayfind/master/{id}` says where a master now sits: the v2 artist path and the
 * JSON pointer (RFC 6901) of the master inside that answer.
 */
import * as v from 'valibot';
import { ApiError, invalidQuery } from '../../http/api-error.js';
import { json } from '../../http/json.js';
import type { Method, RouteDef } from '../../http/route.js';
import { route } from '../../http/route.js';
import { createRouter, type Router } from '../../http/router.js';
import type { CallOptions, Catalogue } from '../../ports/index.js';
import { textParam } from '../../validation/params.js';
import { DEMOTED, isV1Path, routeKind, successorOf, v2PathOf } from '../../versioning.js';
import { parseMasterId } from '../shared/keys.js';

export const WayfindSchema = v.object({
  from: v.pipe(v.string(), v.description('The v1 path and query asked about.')),
  kind: v.pipe(
    v.picklist(['keeper', 'demoted', 'operational']),
    v.description('keeper: same call on /api/v2; demoted: the data moved into a v2 facet; operational: stays on /api/v1.'),
  ),
  to: v.pipe(v.string(), v.description('Path and query to call instead (the same path for an operational route).')),
  method: v.pipe(v.picklist(['GET', 'POST', 'DELETE', 'PUT', 'PATCH']), v.description('Method to use on `to`.')),
  note: v.string(),
});

export const MasterWayfindSchema = v.object({
  master_id: v.number(),
  title: v.string(),
  artist: v.object({ cluster_id: v.number(), slug: v.nullable(v.string()), name: v.string() }),
  to: v.pipe(v.string(), v.description('The v2 artist path whose discography holds the master.')),
  method: v.literal('GET'),
  pointer: v.pipe(
    v.nullable(v.string()),
    v.description('JSON pointer of the master record in that answer; null when the master is beyond the discography’s 500 newest.'),
  ),
  releases_pointer: v.nullable(v.string()),
  note: v.string(),
});

interface MasterLocation {
  master_id: number;
  title: string;
  artist: { cluster_id: number; slug: string | null; name: string };
  to: string;
  index: number | null;
}

/** The master's main artist and the master's index in that artist's discography. */
async function locateMaster(catalogue: Catalogue, id: number, lifetime: CallOptions): Promise<MasterLocation | null> {
  const master = await catalogue.master(id, lifetime);
  const main = master?.artists[0];
  if (!master || !main) return null;
  const dossier = await catalogue.artistDossier(main.cluster_id, lifetime);
  const index = dossier?.discography?.masters.findIndex((m) => m.master_id === id) ?? -1;
  return {
    master_id: id,
    title: master.title,
    artist: { cluster_id: main.cluster_id, slug: main.slug, name: main.name },
    to: `/api/v2/artist/${main.cluster_id}?fields=discography`,
    index: index >= 0 ? index : null,
  };
}

const masterNotFound = (id: number) => new ApiError(404, 'master_not_found', { master_id: id, message: `no master with id ${id}` });

export const wayfindRoute = (routes: () => readonly RouteDef[]) => {
  let router: Router | null = null;
  const v1Router = () => (router ??= createRouter(routes().filter((r) => isV1Path(r.path))));
  return route({
    method: 'GET',
    path: '/api/v1/wayfind',
    access: 'key',
    summary: 'Migration helper: what becomes of a v1 call in v2',
    description:
      'path is a v1 path with its query, e.g. /api/v1/masters/113 or /api/v1/search?q=house. method defaults to the only method of the path, or GET.',
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
    async handler({ query, config, ports, lifetime }) {
      if (!query.path.startsWith('/')) throw invalidQuery([{ path: 'path', message: 'must be a path starting with /api/v1' }]);
      const url = new URL(query.path, config.baseUrl);
      if (!isV1Path(url.pathname)) throw invalidQuery([{ path: 'path', message: 'must be a path starting with /api/v1' }]);
      const match = v1Router().match(url);
      if (!match) throw invalidQuery([{ path: 'path', message: `no v1 route matches ${url.pathname}` }]);
      const methods = [...match.byMethod.keys()];
      const method: Method = query.method ?? (methods.length === 1 ? (methods[0] as Method) : 'GET');
      const def = match.byMethod.get(method);
      if (!def) throw invalidQuery([{ path: 'method', message: `${method} is not a method of ${url.pathname}; it takes ${methods.join(', ')}` }]);
      const from = url.pathname + url.search;
      const kind = routeKind(def, routes());
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
      const where = DEMOTED[def.path]?.where ?? '';
      if (def.path === '/api/v1/masters/:id' || def.path === '/api/v1/dossier/master/:id') {
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
};

export const wayfindMasterRoute = () =>
  route({
    method: 'GET',
    path: '/api/v1/wayfind/master/:id',
    access: 'key',
    summary: 'Migration helper: where a master sits in v2',
    tags: ['migration'],
    responses: { 200: { description: 'The v2 artist path and the JSON pointer of the master in it.', schema: MasterWayfindSchema } },
    errors: ['invalid_master_id', 'master_not_found'],
    async handler({ params, ports, lifetime }) {
      const id = parseMasterId(params.id ?? null);
      const located = await locateMaster(ports.catalogue, id, lifetime);
      if (!located) throw masterNotFound(id);
      const at = located.index === null ? null : `/discography/masters/${located.index}`;
      return json({
        master_id: id,
        title: located.title,
        artist: located.artist,
        to: located.to,
        method: 'GET',
        pointer: at && `${at}/master`,
        releases_pointer: at && `${at}/releases`,
        note:
          at === null
            ? `Master ${id} belongs to ${located.artist.name}, beyond the 500 newest masters the discography lists.`
            : `GET ${located.to} and read ${at}/master (the record) and ${at}/releases.`,
      });
    },
  });
