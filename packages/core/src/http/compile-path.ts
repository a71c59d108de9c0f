/**
 * compilePath: a route path → its segments, each a fixed text or a named parameter.
 *
 *   compilePath('/api/v1/masters/:id') → [{text: 'api'}, {text: 'v1'}, {text: 'masters'}, {param: 'id'}]
 *
 * The route paths of this service are plain: fixed segments and whole-segment parameters
 * (`:name`, letters, digits and `_`). Anything else — wildcards, optional or partial
 * parameters, empty segments, a path not starting with `/` — is refused when the service is
 * built, so no route can mean something the router does not do.
 */

export type PathSegment = { readonly text: string; readonly param?: undefined } | { readonly param: string; readonly text?: undefined };

const PARAM = /^:(\w+)$/;

export function compilePath(path: string): PathSegment[] {
  if (!path.startsWith('/')) throw new Error(`route ${path}: a path starts with /`);
  if (path === '/') return [];
  const names = new Set<string>();
  return path
    .slice(1)
    .split('/')
    .map((segment) => {
      const param = PARAM.exec(segment)?.[1];
      if (param !== undefined) {
        if (names.has(param)) throw new Error(`route ${path}: parameter :${param} appears twice`);
        names.add(param);
        return { param };
      }
      if (segment === '' || /[:*?()]/.test(segment)) {
        throw new Error(
          `route ${path}: segment "${segment}" is neither fixed text nor a whole :parameter (wildcards and optional parameters are not supported)`,
        );
      }
      return { text: segment };
    });
}

/**
 * The segments of a request's pathname (`/api/v1/masters/113` → ['api', 'v1', 'masters', '113']).
 * Trailing slashes are ignored (`/api/v1/search/` is `/api/v1/search`); an empty segment inside
 * the path (`/api//v1`) stays empty and matches nothing.
 */
export function pathnameSegments(pathname: string): string[] {
  let end = pathname.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an all-slash pathname gives [] whether the loop stops at 1 or 0 (end <= 1 below).
  while (end > 1 && pathname.charCodeAt(end - 1) === 47 /* / */) end--;
  return end <= 1 ? [] : pathname.slice(1, end).split('/');
}
