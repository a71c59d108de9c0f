/**
 * Path matching on itty-router. Each path is registered once and carries its routes by method,
 * so one match answers both "which handler" and, for 405, "which methods are allowed".
 */
import { IttyRouter } from 'itty-router';
import { unstorableTextProblem } from '../validation/storable.js';
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

/** Why a path parameter is null: each route's parser names its own parameter with this. */
export const UNDECODABLE_PARAM = 'must be percent-encoded UTF-8 text without U+0000';

/**
 * A path parameter, percent-decoded; null when it is not valid UTF-8 or decodes to text no
 * store can hold (U+0000, validation/storable.ts), so no route hands such text to a store.
 */
function decode(raw: string): string | null {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return unstorableTextProblem(value) ? null : value;
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
    itty.all(path, () => entry);
  }
  const compiled = (itty.routes as unknown as Array<[string, RegExp, Array<() => PathEntry>]>).map(([, regex, handlers], order) => ({
    regex,
    entry: (handlers[0] as () => PathEntry)(),
    order,
  }));
  const buckets = bucketByStaticPrefix([...entries.keys()], compiled);
  return {
    routes,
    // itty-router compiles each path pattern to a RegExp; matching the already-parsed
    // pathname against those avoids itty's own second URL parse on every request, and keeps
    // the match synchronous (itty's fetch is async: a promise and a tick per request).
    // Only the patterns whose leading static segments equal the pathname's are tried.
    match(url) {
      const pathname = url.pathname;
      for (const candidate of buckets.candidates(pathname)) {
        const found = candidate.regex.exec(pathname);
        if (!found) continue;
        const params: Record<string, string | null> = {};
        const raw = found.groups;
        if (raw) for (const k in raw) params[k] = decode(raw[k] as string);
        return { byMethod: candidate.entry.byMethod, params, allow: candidate.entry.allow };
      }
      return null;
    },
  };
}

interface Compiled {
  regex: RegExp;
  entry: PathEntry;
  /** Registration order: the first matching pattern wins, as in itty-router. */
  order: number;
}

/** At most this many leading static segments key a bucket (e.g. `api/v1/masters`). */
const KEY_SEGMENTS = 3;

/**
 * Patterns bucketed by their leading static segments (up to KEY_SEGMENTS, stopping at the
 * first parameter). A pathname that matches a pattern starts with that pattern's static
 * segments, so only the buckets keyed by the pathname's own leading segments can hold a
 * match: 2–3 patterns are tried instead of all of them. Each bucket is stored merged with
 * the buckets of its own prefixes, in registration order, so a lookup is one Map hit.
 */
function bucketByStaticPrefix(paths: string[], compiled: Compiled[]) {
  const own = new Map<string, Compiled[]>();
  paths.forEach((path, i) => {
    if (/[*?]/.test(path)) throw new Error(`route ${path}: wildcards and optional parameters are not supported`);
    const segments = path.split('/').slice(1);
    const staticCount = segments.findIndex((segment) => segment.includes(':'));
    const key = segments.slice(0, Math.min(KEY_SEGMENTS, staticCount === -1 ? segments.length : staticCount)).join('/');
    own.set(key, [...(own.get(key) ?? []), compiled[i] as Compiled]);
  });
  const keyLength = (key: string) => (key === '' ? 0 : key.split('/').length);
  const merged = new Map<string, Compiled[]>();
  for (const key of own.keys()) {
    const parts = key === '' ? [] : key.split('/');
    const prefixes = parts.map((_, n) => parts.slice(0, n).join('/')).concat(key);
    const list = prefixes.flatMap((prefix) => own.get(prefix) ?? []);
    merged.set(
      key,
      [...new Set(list)].sort((a, b) => a.order - b.order),
    );
  }
  const lengths = [...new Set([...own.keys()].map(keyLength))].sort((a, b) => b - a);
  const none: Compiled[] = [];
  return {
    candidates(pathname: string): Compiled[] {
      // Longest key first: its merged list already holds the shorter prefixes' patterns.
      for (const length of lengths) {
        const key = leadingSegments(pathname, length);
        const list = key === null ? undefined : merged.get(key);
        if (list) return list;
      }
      return none;
    },
  };
}

/** The first `count` segments of a pathname without its leading slash, or null if it has fewer. */
function leadingSegments(pathname: string, count: number): string | null {
  if (count === 0) return '';
  let end = 0;
  for (let i = 0; i < count; i++) {
    end = pathname.indexOf('/', end + 1);
    if (end === -1) return i === count - 1 ? pathname.slice(1) : null;
  }
  return pathname.slice(1, end);
}
