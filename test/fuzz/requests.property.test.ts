/**
 * Random requests — paths, Unicode query strings, bodies, headers — against the handler on
 * memory (10,000) and on a real PostgreSQL database loaded with the same fixture (2,000: each
 * is a round trip, about a second in all): never a 500, and every JSON error body has the
 * spec's shape. Most requests are aimed at the service's own routes and parameter names, and
 * the alphabet holds what no store can hold (U+0000, lone surrogates, ids above 2³¹ and 2⁵³,
 * docs/decisions.md §6), so a value core lets through to PostgreSQL unchecked shows up as a 500.
 */

import { ERRORS, type RouteDef } from '@catalogue/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onMemory, onPostgres, type StoreService } from '../support/stores.js';

/** Ids at the edges of the catalogue's ranges (catalogue/id-ranges.ts) and of exact numbers. */
const EDGE_IDS = ['2147483647', '2147483648', '536870912', '2000000001', '8000000004', '4294967296', '9007199254740992', '9007199254740993', '1e21'];
const UNSTORABLE = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff'];

const SEGMENTS = [
  'api',
  'v1',
  'v2',
  'search',
  'facets',
  'masters',
  'batch',
  'dossier',
  'artist',
  'label',
  'festival',
  'master',
  'manifest',
  'bandcamp',
  'release',
  'resolve',
  'breakouts',
  'tastemakers',
  'ones-to-watch',
  'usage',
  'admin',
  'keys',
  'wayfind',
  'search-events',
  'observed',
  'refined',
  'openapi.json',
  '113',
  '0',
  '-1',
  '1e3',
  '%2012',
  'vince-watson',
  'discogs:3225',
  'mbid:x',
  '%FF',
  '%00',
  'vince%00watson',
  '%ED%A0%80',
  '..',
  '',
  'ｇｅｎｒｅ',
  ...EDGE_IDS,
  ...EDGE_IDS.map((id) => `discogs:${id}`),
];
const NAMES = [
  'q',
  'limit',
  'cursor',
  'type',
  'genre',
  'style',
  'format',
  'country',
  'label',
  'year_from',
  'year_to',
  'facets',
  'window',
  'kind',
  'url',
  'discogs',
  'mbid',
  'tag',
  'artist',
  'g\u0435nre',
  'ｌｉｍｉｔ',
  'fields',
  'path',
  'token',
];
const KNOWN_ERRORS = new Set(Object.keys(ERRORS));

/** Text of graphemes mixed with NULs and lone surrogates. */
const unstorableText = fc
  .array(fc.oneof(fc.constantFrom(...UNSTORABLE), fc.string({ unit: 'grapheme', maxLength: 3 })), { maxLength: 4 })
  .map((parts) => parts.join(''));
const bigId = fc.oneof(fc.constantFrom(...EDGE_IDS), fc.bigInt({ min: 2n ** 31n, max: 2n ** 64n }).map(String));
const cursor = fc
  .tuple(fc.double({ noNaN: true }), fc.constantFrom('master', 'artist', 'label', 'festival', 'song'), fc.oneof(fc.integer(), bigId.map(Number)))
  .map((position) => btoa(JSON.stringify(position)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));

const segment = fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent));
const anyPath = fc.oneof(
  fc.array(segment, { maxLength: 6 }).map((s) => `/api/v1/${s.join('/')}`),
  fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`),
);
/** A path parameter of a route: known segments, ids at the edges, unstorable text percent-encoded. */
const param = fc.oneof(
  segment,
  bigId,
  bigId.map((id) => `discogs:${id}`),
  // A lone surrogate has no percent-encoding (encodeURIComponent throws): it arrives as bytes that are no UTF-8.
  unstorableText.map((text) => (/\p{Cs}/u.test(text) ? '%ED%A0%80' : encodeURIComponent(text))),
);
const value = fc.oneof(
  { arbitrary: unstorableText, weight: 2 },
  { arbitrary: bigId, weight: 2 },
  bigId.chain((id) => fc.constantFrom(`label/${id}`, `master/${id}`, `https://www.discogs.com/artist/${id}-X`)),
  cursor,
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
  fc.constantFrom('', '１０', '1e3', 'Electronic', 'techno', '90d', 'master', 'artist'),
);
/** Mostly the route's own parameter names (so values reach its schemas), else any name. */
const queryOf = (names: readonly string[]) => {
  const anyName = fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'grapheme', maxLength: 6 }));
  const name = names.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 6 }, anyName) : anyName;
  return fc.array(fc.tuple(name, value), { maxLength: 4 });
};
/** `"$search_id"` stands for the search id the beacon token below was issued for. */
const SEARCH_ID = '$search_id';
const body = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.array(fc.oneof(fc.integer({ min: -2, max: 3_000_000_000 }), bigId.map(Number)), { maxLength: 120 }).map((ids) => JSON.stringify({ ids })),
  fc.record({ email: fc.constantFrom('ops@example.com', 'ops\u0000@example.com'), name: unstorableText }).map((b) => JSON.stringify(b)),
  fc.record({ search_id: fc.constant(SEARCH_ID), q: unstorableText }).map((b) => JSON.stringify(b)),
  fc
    .record({
      search_id: fc.constant(SEARCH_ID),
      hits: fc.array(fc.record({ id: fc.oneof(fc.nat(), bigId.map(Number)), position: fc.nat() }), { maxLength: 3 }),
    })
    .map((b) => JSON.stringify(b)),
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'POST', 'HEAD', 'DELETE', 'PUT', 'OPTIONS', 'PATCH');
const authorization = fc.constantFrom('none', 'admin', 'beacon');

/**
 * Method, path and query: mostly one of the service's routes with random path parameters and
 * its own parameter names among the others, so most requests reach a handler (and a store);
 * otherwise any path at all.
 */
function target(routes: readonly RouteDef[]) {
  const routed = fc.constantFrom(...routes).chain((def) => {
    const holes = def.path.split('/').filter((part) => part.startsWith(':')).length;
    return fc.record({
      method: fc.oneof({ arbitrary: fc.constant(def.method), weight: 4 }, method),
      path: fc.array(param, { minLength: holes, maxLength: holes }).map((values) => {
        let i = 0;
        return def.path.replace(/:[A-Za-z]+/g, () => values[i++] ?? '');
      }),
      query: queryOf(Object.keys(def.query ?? {})),
    });
  });
  return fc.oneof({ arbitrary: routed, weight: 3 }, fc.record({ method, path: anyPath, query: queryOf([]) }));
}

/** A search's beacon token and id, so beacon bodies can get past the token. */
async function beaconOf(s: StoreService): Promise<{ token: string; searchId: string }> {
  const res = await s.fetch('/api/v1/search?q=moments', { headers: { 'x-api-key': s.key } });
  const answer = (await res.json()) as { search_id: string; beacon_token: string };
  return { token: answer.beacon_token, searchId: answer.search_id };
}

describe.each([
  ['memory', onMemory, 10_000],
  ['PostgreSQL', onPostgres, 2_000],
] as const)('random requests on %s', (_store, open, numRuns) => {
  let s: StoreService;
  beforeAll(async () => {
    s = await open();
  });
  afterAll(() => s?.close());

  it('never answer 500 and always answer spec-shaped errors', async () => {
    const keys = [s.key, 'ck_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'garbage', ''];
    // Mostly the valid key (index 0), so requests get past the gate; past the end: no header.
    const keyIndex = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, fc.nat({ max: keys.length }));
    const beacon = await beaconOf(s);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(target(s.service.routes), body, keyIndex, authorization, async ({ method: m, path: p, query: q }, b, k, auth) => {
        runs++;
        const qs = new URLSearchParams(q).toString();
        const headers: Record<string, string> = {};
        const key = keys[k];
        if (key !== undefined) headers['x-api-key'] = key;
        if (auth === 'admin') headers.authorization = 'Bearer test-admin-token';
        if (auth === 'beacon') headers.authorization = `Bearer ${beacon.token}`;
        if (b !== undefined) headers['content-type'] = 'application/json';
        let request: Request;
        try {
          const payload = b?.replace(JSON.stringify(SEARCH_ID), JSON.stringify(beacon.searchId));
          request = new Request(`http://catalogue.test${p}${qs ? `?${qs}` : ''}`, {
            method: m,
            headers,
            body: m === 'GET' || m === 'HEAD' ? undefined : payload,
          });
        } catch {
          return; // not a request a client could send (e.g. an invalid URL)
        }
        const res = await s.service.fetch(request, { clientIp: '192.0.2.1' });
        expect(res.status).not.toBe(500);
        expect(res.headers.get('x-request-id')).toBeTruthy();
        // The HTML pages (sign-in link, welcome) answer their refusals as pages, not error bodies.
        const page = res.headers.get('content-type')?.startsWith('text/html') ?? false;
        if (res.status >= 400 && m !== 'HEAD' && !page) {
          expect(res.headers.get('cache-control')).toBe('no-store');
          const json = (await res.json()) as Record<string, unknown>;
          expect(KNOWN_ERRORS.has(json.error as string)).toBe(true);
          expect(ERRORS[json.error as keyof typeof ERRORS].status).toBe(res.status);
          if (json.details !== undefined) {
            expect(Array.isArray(json.details)).toBe(true);
            for (const d of json.details as Array<Record<string, unknown>>) {
              expect(typeof d.path).toBe('string');
              if (json.error !== 'invalid_facet') expect(typeof d.message).toBe('string');
            }
          }
          if (json.error === 'rate_limited') expect(Number.isInteger(json.retry_after_seconds)).toBe(true);
        } else {
          await res.arrayBuffer();
        }
      }),
      { numRuns, seed: 20261122 },
    );
    expect(runs).toBeGreaterThanOrEqual(numRuns);
    expect(s.logs.filter((l) => l.kind === 'request.internal_error')).toEqual([]);
  }, 120_000);
});
