/**
 * 10,000+ random requests — paths, Unicode query strings, bodies, headers — against the
 * handler in memory: never a 500, and every error body has the spec's shape.
 */

import { ERROR_STATUS } from '@catalogue/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';

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
  '..',
  '',
  'ｇｅｎｒｅ',
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
];
const KNOWN_ERRORS = new Set(Object.keys(ERROR_STATUS));

const segment = fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ unit: 'grapheme', maxLength: 8 }).map(encodeURIComponent));
const path = fc.oneof(
  fc.array(segment, { maxLength: 6 }).map((s) => `/api/v1/${s.join('/')}`),
  fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`),
);
const value = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
  fc.constantFrom('', '１０', '1e3', 'Electronic', 'techno', '90d', 'master', 'artist'),
);
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'grapheme', maxLength: 6 })), value), { maxLength: 5 });
const body = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.array(fc.integer({ min: -2, max: 3_000_000_000 }), { maxLength: 120 }).map((ids) => JSON.stringify({ ids })),
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'POST', 'HEAD', 'DELETE', 'PUT', 'OPTIONS', 'PATCH');

describe('random requests', () => {
  it('never answer 500 and always answer spec-shaped errors', async () => {
    const t = setup({ config: { publicRateLimitPerMinute: 1_000_000 } });
    const keys = [
      await t.issueKey({ tier: 'contract_2000', limits: { burst_per_minute: 1_000_000, quota_per_month: 1_000_000_000, concurrency: 100 } }),
      'ck_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'garbage',
      '',
    ];
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(method, path, query, body, fc.nat({ max: keys.length }), fc.boolean(), async (m, p, q, b, k, admin) => {
        runs++;
        const qs = new URLSearchParams(q).toString();
        const headers: Record<string, string> = {};
        const key = keys[k];
        if (key !== undefined) headers['x-api-key'] = key;
        if (admin) headers.authorization = 'Bearer test-admin-token';
        let request: Request;
        try {
          request = new Request(`http://catalogue.test${p}${qs ? `?${qs}` : ''}`, { method: m, headers, body: m === 'GET' || m === 'HEAD' ? undefined : b });
        } catch {
          return; // not a request a client could send (e.g. an invalid URL)
        }
        const res = await t.service.fetch(request, { clientIp: '192.0.2.1' });
        expect(res.status).not.toBe(500);
        expect(res.headers.get('x-request-id')).toBeTruthy();
        if (res.status >= 400 && m !== 'HEAD') {
          expect(res.headers.get('cache-control')).toBe('no-store');
          const json = (await res.json()) as Record<string, unknown>;
          expect(KNOWN_ERRORS.has(json.error as string)).toBe(true);
          expect(ERROR_STATUS[json.error as keyof typeof ERROR_STATUS]).toBe(res.status);
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
      { numRuns: 10_000, seed: 20261122 },
    );
    expect(runs).toBeGreaterThanOrEqual(10_000);
    expect(t.logs.filter((l) => l.kind === 'request.internal_error')).toEqual([]);
  }, 120_000);
});
