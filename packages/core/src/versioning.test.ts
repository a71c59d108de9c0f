import { describe, expect, it } from 'vitest';
import { resolveConfig } from './config.js';
import type { Method, RouteDef } from './http/route.js';
import { createCutover, cutoverPhase, httpDate, isV1Path, routeKind, successorOf, sunsetInstant, v2PathOf } from './versioning.js';

const DAY = 86_400_000;
const SUNSET = Date.UTC(2026, 8, 1);
const config = resolveConfig({ baseUrl: 'https://api.example.com', cutoverSunsetAt: new Date(SUNSET).toISOString() });

const def = (method: Method, path: string, extra: Partial<RouteDef> = {}): RouteDef => ({
  method,
  path,
  access: 'key',
  summary: path,
  tags: [],
  responses: {},
  handler: () => new Response(),
  ...extra,
});
const demoted = def('GET', '/api/v1/masters/:id', {
  deprecation: { successor: (params) => `/api/v2/resolve?discogs=master/${params.id}`, where: 'in the artist’s discography' },
});
const keeper = def('GET', '/api/v1/search');
const operational = def('GET', '/api/v1/usage');
const routes = [keeper, def('GET', '/api/v2/search'), demoted, operational, def('POST', '/api/v1/stripe/webhook'), def('GET', '/api/v2/usage-like')];
const url = (path: string) => new URL(`https://api.example.com${path}`);

describe('sunsetInstant and cutoverPhase', () => {
  it('reads CUTOVER_SUNSET_AT; unset is no cutover; a value that is not a date is a misconfiguration', () => {
    expect(sunsetInstant({ cutoverSunsetAt: null })).toBeNull();
    expect(sunsetInstant({ cutoverSunsetAt: '2026-09-01T00:00:00Z' })).toBe(SUNSET);
    expect(() => sunsetInstant({ cutoverSunsetAt: 'next autumn' })).toThrow(/CUTOVER_SUNSET_AT/);
  });

  it('none → guide (60 days before) → deprecation (30 days before) → sunset', () => {
    expect(cutoverPhase(null, SUNSET)).toBe('none');
    expect(cutoverPhase(SUNSET, SUNSET - 60 * DAY - 1)).toBe('none');
    expect(cutoverPhase(SUNSET, SUNSET - 60 * DAY)).toBe('guide');
    expect(cutoverPhase(SUNSET, SUNSET - 30 * DAY - 1)).toBe('guide');
    expect(cutoverPhase(SUNSET, SUNSET - 30 * DAY)).toBe('deprecation');
    expect(cutoverPhase(SUNSET, SUNSET - 1)).toBe('deprecation');
    expect(cutoverPhase(SUNSET, SUNSET)).toBe('sunset');
  });

  it('httpDate is the IMF-fixdate of RFC 9110', () => {
    expect(httpDate(SUNSET)).toBe('Tue, 01 Sep 2026 00:00:00 GMT');
  });
});

describe('route kinds', () => {
  it('keeper: a v2 twin with the same method; demoted: declares a deprecation; operational: the rest', () => {
    expect(routeKind(keeper, routes)).toBe('keeper');
    expect(routeKind(demoted, routes)).toBe('demoted');
    expect(routeKind(operational, routes)).toBe('operational');
    expect(routeKind(def('POST', '/api/v1/search'), routes)).toBe('operational');
  });

  it('the successor: the same call on v2 for a keeper, the declared one for a demoted route, none otherwise', () => {
    expect(successorOf(keeper, 'keeper', {}, url('/api/v1/search?q=house&limit=3'))).toBe('/api/v2/search?q=house&limit=3');
    expect(successorOf(demoted, 'demoted', { id: '113' }, url('/api/v1/masters/113'))).toBe('/api/v2/resolve?discogs=master/113');
    expect(successorOf(operational, 'operational', {}, url('/api/v1/usage'))).toBeNull();
    expect(v2PathOf('/api/v1/label/:key')).toBe('/api/v2/label/:key');
    expect([isV1Path('/api/v1'), isV1Path('/api/v1/search'), isV1Path('/api/v10'), isV1Path('/api/v2/search')]).toEqual([true, true, false, false]);
  });
});

describe('createCutover', () => {
  const cutover = createCutover(config, routes);

  it('touches nothing before 30 days out, and never an operational or v2 route', () => {
    expect(cutover.decide(keeper, {}, url('/api/v1/search'), SUNSET - 31 * DAY)).toEqual({ headers: null, redirect: null, gone: null });
    expect(cutover.decide(operational, {}, url('/api/v1/usage'), SUNSET + DAY)).toEqual({ headers: null, redirect: null, gone: null });
    expect(cutover.decide(routes[1] as RouteDef, {}, url('/api/v2/search'), SUNSET + DAY)).toEqual({ headers: null, redirect: null, gone: null });
    expect(createCutover(resolveConfig({ baseUrl: 'https://api.example.com' }), routes).decide(keeper, {}, url('/api/v1/search'), SUNSET + DAY)).toEqual({
      headers: null,
      redirect: null,
      gone: null,
    });
  });

  it('from 30 days out: Deprecation, Sunset and the successor Link on keeper and demoted answers', () => {
    const decision = cutover.decide(demoted, { id: '113' }, url('/api/v1/masters/113'), SUNSET - 30 * DAY);
    expect(decision).toEqual({
      headers: {
        deprecation: 'true',
        sunset: 'Tue, 01 Sep 2026 00:00:00 GMT',
        link: '<https://api.example.com/api/v2/resolve?discogs=master/113>; rel="successor-version"',
      },
      redirect: null,
      gone: null,
    });
  });

  it('from the sunset: a keeper answers 308 to its v2 path, query kept', () => {
    const { redirect } = cutover.decide(keeper, {}, url('/api/v1/search?q=house'), SUNSET);
    expect(redirect?.status).toBe(308);
    expect(redirect?.headers.get('location')).toBe('https://api.example.com/api/v2/search?q=house');
    expect(redirect?.headers.get('deprecation')).toBe('true');
  });

  it('from the sunset: a demoted route answers 410 gone saying where its data went', () => {
    const { gone } = cutover.decide(demoted, { id: '113' }, url('/api/v1/masters/113'), SUNSET);
    expect(gone).toMatchObject({
      status: 410,
      code: 'gone',
      body: {
        message: 'GET /api/v1/masters/{id} was retired at the v1 sunset (2026-09-01T00:00:00.000Z).',
        where: 'in the artist’s discography',
        successor: 'https://api.example.com/api/v2/resolve?discogs=master/113',
        migration_guide: 'https://api.example.com/docs/migration',
      },
      headers: { link: '<https://api.example.com/api/v2/resolve?discogs=master/113>; rel="successor-version"' },
    });
  });
});
