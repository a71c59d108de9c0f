import { describe, expect, it } from 'vitest';
import { compilePath, pathnameSegments } from './compile-path.js';
import type { Method, RouteDef } from './route.js';
import { createRouter, UNDECODABLE_PARAM } from './router.js';

const def = (method: Method, path: string): RouteDef => ({
  method,
  path,
  access: 'open',
  summary: path,
  tags: [],
  responses: {},
  handler: () => new Response(),
});

/** Built inside each test (not at import), so what a test asserts was built by the code under test. */
const ROUTES = (): RouteDef[] => [
  def('GET', '/api/v1'),
  def('GET', '/api/v1/masters/:id'),
  def('POST', '/api/v1/masters/batch'),
  def('GET', '/api/v1/bandcamp/:artistKey'),
  def('GET', '/api/v1/bandcamp/release'),
  def('GET', '/api/v1/openapi.json'),
  def('GET', '/api/v1/dossier/:kind/:slug'),
  def('GET', '/api/v1/dossier/master/:id'),
  def('POST', '/api/dashboard/keys/:id'),
  def('DELETE', '/api/dashboard/keys/:id'),
];
const match = (path: string) => createRouter(ROUTES()).match(new URL(path, 'http://x.test'));
const routeOf = (path: string) => {
  const found = match(path);
  return found && { paths: [...found.byMethod.values()].map((d) => `${d.method} ${d.path}`), params: found.params, allow: found.allow };
};

describe('compilePath', () => {
  it('splits a path into fixed segments and whole-segment parameters', () => {
    expect(compilePath('/api/v1/masters/:id')).toEqual([{ text: 'api' }, { text: 'v1' }, { text: 'masters' }, { param: 'id' }]);
    expect(compilePath('/api/v1/openapi.json')).toEqual([{ text: 'api' }, { text: 'v1' }, { text: 'openapi.json' }]);
    expect(compilePath('/')).toEqual([]);
  });

  it.each(['api/v1', '/api/*', '/api/:id?', '/api/v:version', '/api//v1', '/api/v1/', '/a/:x/:x', '/a/(b)'])('refuses %s', (path) => {
    expect(() => compilePath(path)).toThrow();
  });

  it('pathnameSegments ignores trailing slashes and keeps inner empty segments', () => {
    expect(pathnameSegments('/api/v1/search')).toEqual(['api', 'v1', 'search']);
    expect(pathnameSegments('/api/v1/search//')).toEqual(['api', 'v1', 'search']);
    expect(pathnameSegments('/api//v1')).toEqual(['api', '', 'v1']);
    expect(pathnameSegments('/')).toEqual([]);
    expect(pathnameSegments('//')).toEqual([]);
  });
});

describe('createRouter', () => {
  it('matches fixed paths and collects parameters by name', () => {
    expect(routeOf('/api/v1')).toMatchObject({ paths: ['GET /api/v1'], params: {} });
    expect(routeOf('/api/v1/masters/113')).toMatchObject({ paths: ['GET /api/v1/masters/:id'], params: { id: '113' } });
    expect(routeOf('/api/v1/dossier/artist/moodymann')).toMatchObject({ params: { kind: 'artist', slug: 'moodymann' } });
    expect(routeOf('/api/v1/openapi.json')).toMatchObject({ paths: ['GET /api/v1/openapi.json'] });
  });

  it('a fixed segment wins over a parameter, whatever the registration order', () => {
    expect(routeOf('/api/v1/masters/batch')?.paths).toEqual(['POST /api/v1/masters/batch']);
    expect(routeOf('/api/v1/bandcamp/release')?.paths).toEqual(['GET /api/v1/bandcamp/release']);
    expect(routeOf('/api/v1/bandcamp/moodymann')?.paths).toEqual(['GET /api/v1/bandcamp/:artistKey']);
    expect(routeOf('/api/v1/dossier/master/113')).toMatchObject({ paths: ['GET /api/v1/dossier/master/:id'], params: { id: '113' } });
    expect(routeOf('/api/v1/dossier/label/master')).toMatchObject({ paths: ['GET /api/v1/dossier/:kind/:slug'], params: { kind: 'label', slug: 'master' } });
    expect(match('/api/v1/dossier/master')).toBeNull();
  });

  it('backtracks from a fixed segment to a parameter when the fixed branch does not match', () => {
    const r = createRouter([def('GET', '/a/b/c'), def('GET', '/a/:x/d')]);
    const found = r.match(new URL('http://x.test/a/b/d'));
    expect(found?.params).toEqual({ x: 'b' });
    expect(r.match(new URL('http://x.test/a/b/c'))?.params).toEqual({});
  });

  it('ignores trailing slashes; an empty or missing segment matches nothing', () => {
    expect(routeOf('/api/v1/')?.paths).toEqual(['GET /api/v1']);
    expect(routeOf('/api/v1/masters/113//')?.params).toEqual({ id: '113' });
    expect(match('/api/v1/masters/')).toBeNull();
    expect(match('/api//v1')).toBeNull();
    expect(match('//api/v1')).toBeNull();
    expect(match('/')).toBeNull();
    expect(match('/api/v1/masters/113/extra')).toBeNull();
    expect(match('/API/v1')).toBeNull();
  });

  it('groups methods per path: Allow lists them sorted, HEAD with GET', () => {
    expect(routeOf('/api/dashboard/keys/key_1')).toMatchObject({
      paths: ['POST /api/dashboard/keys/:id', 'DELETE /api/dashboard/keys/:id'],
      allow: 'DELETE, POST',
    });
    expect(routeOf('/api/v1/masters/1')?.allow).toBe('GET, HEAD');
  });

  it('percent-decodes parameters; undecodable or unstorable text becomes null', () => {
    expect(routeOf('/api/v1/bandcamp/caf%C3%A9')?.params).toEqual({ artistKey: 'café' });
    expect(routeOf('/api/v1/bandcamp/%E0%A4%A')?.params).toEqual({ artistKey: null });
    expect(routeOf('/api/v1/bandcamp/a%00b')?.params).toEqual({ artistKey: null });
    expect(UNDECODABLE_PARAM).toContain('U+0000');
  });

  it('refuses two routes with the same method and path, and two spellings of one path', () => {
    expect(() => createRouter([def('GET', '/a/:id'), def('GET', '/a/:id')])).toThrow(/duplicate route GET \/a\/:id/);
    expect(() => createRouter([def('GET', '/a/:id'), def('POST', '/a/:key')])).toThrow(/match the same requests/);
  });

  it('an empty segment never fills a parameter', () => {
    expect(match('/api/v1/dossier//moodymann')).toBeNull();
    expect(match('/api/dashboard/keys//')).toBeNull();
  });

  it('a branch that failed leaves no parameter value behind for the branch tried next', () => {
    const r = createRouter([def('GET', '/x/fixed/:p/end'), def('GET', '/x/:q/other/z')]);
    expect(r.match(new URL('http://x.test/x/fixed/other/z'))?.params).toEqual({ q: 'fixed' });
    expect(r.match(new URL('http://x.test/x/fixed/v/end'))?.params).toEqual({ p: 'v' });
  });

  it('says which routes collide', () => {
    expect(() => createRouter([def('GET', '/a/:id'), def('GET', '/a/:id')])).toThrow(new Error('duplicate route GET /a/:id'));
    expect(() => createRouter([def('GET', '/a/:id'), def('POST', '/a/:key')])).toThrow(
      new Error('routes /a/:id and /a/:key match the same requests; spell them alike'),
    );
  });

  it('Allow: a path without GET has no HEAD', () => {
    const r = createRouter([def('POST', '/b'), def('PUT', '/b'), def('GET', '/c')]);
    expect(r.match(new URL('http://x.test/b'))?.allow).toBe('POST, PUT');
    expect(r.match(new URL('http://x.test/c'))?.allow).toBe('GET, HEAD');
    expect(r.routes).toHaveLength(3);
  });
});

describe('compilePath: what each refusal says', () => {
  it('names the path and the fault', () => {
    expect(() => compilePath('api/v1')).toThrow(new Error('route api/v1: a path starts with /'));
    expect(() => compilePath('/a/:x/:x')).toThrow(new Error('route /a/:x/:x: parameter :x appears twice'));
    expect(() => compilePath('/api/*')).toThrow(
      new Error('route /api/*: segment "*" is neither fixed text nor a whole :parameter (wildcards and optional parameters are not supported)'),
    );
    expect(() => compilePath('/api//v1')).toThrow(/segment "" is neither/);
  });
});
