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
  match(url: URL): PathMatch | null;
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
    // itty-router compiles each path pattern to a RegExp; matching the already-parsed
    // pathname against those avoids itty's own second URL parse on every request, and keeps
    // the match synchronous (itty's fetch is async: a promise and a tick per request).
    match(url) {
      for (const [, regex, handlers] of itty.routes as unknown as Array<
        [string, RegExp, Array<(req: { params: Record<string, string> }) => { entry: PathEntry }>]
      >) {
        const found = regex.exec(url.pathname);
        if (!found) continue;
        const raw = found.groups ?? {};
        const { entry } = (handlers[0] as (req: { params: Record<string, string> }) => { entry: PathEntry })({ params: raw });
        const params: Record<string, string | null> = {};
        for (const k in raw) params[k] = decode(raw[k] as string);
        return { byMethod: entry.byMethod, params, allow: entry.allow };
      }
      return null;
    },
  };
}
