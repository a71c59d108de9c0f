/**
 * Path matching, our own: every route path is compiled once (compile-path.ts) and the paths
 * form a tree with one branch per fixed segment and one for a parameter; a request's pathname
 * is walked segment by segment, a fixed segment tried before a parameter. Each path carries
 * its routes by method, so one match answers both "which handler" and, for 405, "which
 * methods are allowed".
 *
 * What matches: fixed segments exactly (case-sensitive), a parameter any non-empty segment,
 * trailing slashes ignored. A fixed segment wins over a parameter at the same place
 * (`/masters/batch` never reaches `/masters/:id`), whatever the registration order.
 */
import { unstorableTextProblem } from '../validation/storable.js';
import { compilePath, pathnameSegments } from './compile-path.js';
import type { Method, RouteDef } from './route.js';

export interface PathMatch {
  byMethod: Map<Method, RouteDef>;
  params: Record<string, string | null>;
  /** The `Allow` header value for this path. */
  allow: string;
}

export interface Router {
  match(url: URL): PathMatch | null;
  routes: readonly RouteDef[];
}

/** Why a path parameter is null: each route's parser names its own parameter with this. */
export const UNDECODABLE_PARAM = 'must be percent-encoded UTF-8 text without U+0000';

/** One route path: its routes by method and its parameter names, in path order. */
interface PathEntry {
  path: string;
  byMethod: Map<Method, RouteDef>;
  allow: string;
  paramNames: string[];
}

interface Node {
  fixed: Map<string, Node> | null;
  param: Node | null;
  entry: PathEntry | null;
}

const node = (): Node => ({ fixed: null, param: null, entry: null });

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
  const root = node();
  const entries = new Map<string, PathEntry>();
  for (const def of routes) {
    let entry = entries.get(def.path);
    if (!entry) {
      entry = insert(root, def.path);
      entries.set(def.path, entry);
    }
    if (entry.byMethod.has(def.method)) throw new Error(`duplicate route ${def.method} ${def.path}`);
    entry.byMethod.set(def.method, def);
  }
  for (const entry of entries.values()) {
    const methods = [...entry.byMethod.keys()];
    if (methods.includes('GET')) methods.push('HEAD' as Method);
    entry.allow = methods.sort().join(', ');
  }
  return {
    routes,
    match(url) {
      const segments = pathnameSegments(url.pathname);
      const values: string[] = [];
      const entry = walk(root, segments, 0, values);
      if (!entry) return null;
      const params: Record<string, string | null> = {};
      for (let i = 0; i < values.length; i++) params[entry.paramNames[i] as string] = decode(values[i] as string);
      return { byMethod: entry.byMethod, params, allow: entry.allow };
    },
  };
}

function insert(root: Node, path: string): PathEntry {
  let at = root;
  const paramNames: string[] = [];
  for (const segment of compilePath(path)) {
    if (segment.param !== undefined) {
      paramNames.push(segment.param);
      at.param ??= node();
      at = at.param;
    } else {
      at.fixed ??= new Map();
      let next = at.fixed.get(segment.text);
      if (!next) {
        next = node();
        at.fixed.set(segment.text, next);
      }
      at = next;
    }
  }
  // Two paths of the same shape (`/a/:x` and `/a/:y`) would be one path with two spellings.
  if (at.entry) throw new Error(`routes ${at.entry.path} and ${path} match the same requests; spell them alike`);
  at.entry = { path, byMethod: new Map(), allow: '', paramNames };
  return at.entry;
}

/** The entry the segments from `i` on lead to, below `at`; `values` collects the parameters on the way. */
function walk(at: Node, segments: readonly string[], i: number, values: string[]): PathEntry | null {
  if (i === segments.length) return at.entry;
  const segment = segments[i] as string;
  const fixed = at.fixed?.get(segment);
  if (fixed) {
    const found = walk(fixed, segments, i + 1, values);
    if (found) return found;
  }
  if (at.param && segment !== '') {
    values.push(segment);
    const found = walk(at.param, segments, i + 1, values);
    if (found) return found;
    values.pop();
  }
  return null;
}
