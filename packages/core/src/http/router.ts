/**
 * Path matching on itty-router. Each path is registered once and carries its routes by method,
 * so one match answers both "which handler" and, for 405, "which methods are allowed".
 */
import { IttyRouter } from 'itty-router';
import type { Method, RouteDef } from './route.js';

export interface PathMatch {
  byMethod: Map<Method, RouteDef>;
  params: Record<string, string | null>;
  /** The `Allow` header value for this path. */
  allow: string;
}

interface PathEntry {
  byMethod: Map<Method, RouteDef>;
  allow: string;
}

export interface Router {
  match(request: Request, url: URL): Promise<PathMatch | null>;
  routes: readonly RouteDef[];
}

function decode(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

export function createRouter(routes: readonly RouteDef[]): Router {
  const entries = new Map<string, PathEntry>();
  for (const def of routes) {
    let entry = entries.get(def.path);
    if (!entry) {
      entry = { byMethod: new Map(), allow: '' };
      entries.set(def.path, entry);
    }
    if (entry.byMethod.has(def.method)) throw new Error(`duplicate route ${def.method} ${def.path}`);
    entry.byMethod.set(def.method, def);
  }
  const itty = IttyRouter();
  for (const [path, entry] of entries) {
    const methods = [...entry.byMethod.keys()];
    if (methods.includes('GET')) methods.push('HEAD' as Method);
    entry.allow = methods.sort().join(', ');
    // The handler only reports which entry matched; dispatch happens in the service.
    itty.all(path, (req: { params: Record<string, string> }) => ({ entry, params: req.params }));
  }
  return {
    routes,
    async match(request, _url) {
      // itty reads only `method` and `url` and writes `params`: hand it a scratch object, not the Request.
      const hit = (await itty.fetch({ method: request.method, url: request.url } as never)) as { entry: PathEntry; params: Record<string, string> } | undefined;
      if (!hit) return null;
      const params: Record<string, string | null> = {};
      for (const [k, raw] of Object.entries(hit.params)) params[k] = decode(raw);
      return { byMethod: hit.entry.byMethod, params, allow: hit.entry.allow };
    },
  };
}
