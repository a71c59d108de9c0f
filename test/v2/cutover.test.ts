/**
 * The cutover walked on the injected clock (docs/decisions.md §7): T−61d, T−59d, T−31d, T−29d, the
 * sunset instant and T+1d, for a keeper (search), a demoted (masters/{id}) and an operational
 * (usage) route, with exact status, headers, Location and body.
 */
import { describe, expect, it } from 'vitest';
import { expectError, setup } from '../support/service.js';

const SUNSET = '2026-09-01T00:00:00Z';
const SUNSET_HTTP = 'Tue, 01 Sep 2026 00:00:00 GMT';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(SUNSET) + days * DAY);
const ORIGIN = 'http://catalogue.test';

async function walk() {
  const t = setup({ now: at(-61), config: { cutoverSunsetAt: SUNSET, secretKey: 'a'.repeat(64) } });
  const key = await t.issueKey({ tier: 'contract_2000' });
  const get = (path: string, init: RequestInit = {}) => t.fetch(path, { ...init, headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) } });
  return { t, key, get };
}

const KEEPER = '/api/v1/search?q=moments&limit=2';
const DEMOTED = '/api/v1/masters/113';
const OPERATIONAL = '/api/v1/usage';

function cutoverHeaders(res: Response) {
  return { deprecation: res.headers.get('deprecation'), sunset: res.headers.get('sunset'), link: res.headers.get('link') };
}
const NONE = { deprecation: null, sunset: null, link: null };
const notice = (successor: string) => ({ deprecation: 'true', sunset: SUNSET_HTTP, link: `<${ORIGIN}${successor}>; rel="successor-version"` });

describe('cutover on the clock', () => {
  it('walks T−61d … T+1d for keeper, demoted and operational routes', async () => {
    const { t, get } = await walk();

    // Before the guide and the deprecation window everything answers as before, without notice.
    for (const day of [-61, -59, -31]) {
      t.clock.set(at(day));
      const keeper = await get(KEEPER);
      expect({ day, status: keeper.status, ...cutoverHeaders(keeper) }).toEqual({ day, status: 200, ...NONE });
      const demoted = await get(DEMOTED);
      expect({ day, status: demoted.status, ...cutoverHeaders(demoted) }).toEqual({ day, status: 200, ...NONE });
      expect(((await demoted.json()) as { master_id: number }).master_id).toBe(113);
      const operational = await get(OPERATIONAL);
      expect({ day, status: operational.status, ...cutoverHeaders(operational) }).toEqual({ day, status: 200, ...NONE });
    }

    // From 30 days before: Deprecation, Sunset and the successor Link on keeper and demoted answers.
    t.clock.set(at(-29));
    const keeper = await get(KEEPER);
    expect(keeper.status).toBe(200);
    expect(cutoverHeaders(keeper)).toEqual(notice('/api/v2/search?q=moments&limit=2'));
    const demoted = await get(DEMOTED);
    expect(demoted.status).toBe(200);
    expect(cutoverHeaders(demoted)).toEqual(notice('/api/v2/resolve?discogs=master/113'));
    const operational = await get(OPERATIONAL);
    expect({ status: operational.status, ...cutoverHeaders(operational) }).toEqual({ status: 200, ...NONE });
    // Refusals on a keeper carry the notice too.
    const refused = await t.fetch(KEEPER);
    await expectError(refused, 401, 'missing_api_key');
    expect(cutoverHeaders(refused)).toEqual(notice('/api/v2/search?q=moments&limit=2'));

    // From the sunset instant: 308 for keepers, 410 for demoted routes, operational untouched.
    for (const day of [0, 1]) {
      t.clock.set(at(day));
      const redirect = await get(KEEPER);
      expect({ day, status: redirect.status, location: redirect.headers.get('location'), ...cutoverHeaders(redirect) }).toEqual({
        day,
        status: 308,
        location: `${ORIGIN}/api/v2/search?q=moments&limit=2`,
        ...notice('/api/v2/search?q=moments&limit=2'),
      });
      expect(await redirect.text()).toBe('');
      expect(redirect.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);

      const gone = await get(DEMOTED);
      const body = await expectError(gone, 410, 'gone');
      expect(cutoverHeaders(gone)).toEqual(notice('/api/v2/resolve?discogs=master/113'));
      expect(body).toEqual({
        error: 'gone',
        message: 'GET /api/v1/masters/{id} was retired at the v1 sunset (2026-09-01T00:00:00.000Z).',
        where: expect.stringContaining('discography facet'),
        successor: `${ORIGIN}/api/v2/resolve?discogs=master/113`,
        migration_guide: `${ORIGIN}/docs/migration`,
        request_id: gone.headers.get('x-request-id'),
      });

      const usage = await get(OPERATIONAL);
      expect({ day, status: usage.status, ...cutoverHeaders(usage) }).toEqual({ day, status: 200, ...NONE });
      const wayfind = await get('/api/v1/wayfind?path=/api/v1/search');
      expect(wayfind.status).toBe(200);
    }
  });

  it('the 308 keeps method and query, and its Location answers on v2', async () => {
    const { t, get, key } = await walk();
    t.clock.set(at(0));
    const post = await t.fetch('/api/v1/search-events/refined?x=1', { method: 'POST', body: '{}' });
    expect(post.status).toBe(308);
    expect(post.headers.get('location')).toBe(`${ORIGIN}/api/v2/search-events/refined?x=1`);
    const batch = await get('/api/v1/masters/batch', { method: 'POST', body: '{"ids":[113]}' });
    const body = await expectError(batch, 410, 'gone');
    expect(body.successor).toBe(`${ORIGIN}/api/v2/dossier/manifest`);
    const bandcamp = await get('/api/v1/bandcamp/marla-vance');
    expect(bandcamp.status).toBe(410);
    expect(bandcamp.headers.get('link')).toBe(`<${ORIGIN}/api/v2/artist/marla-vance?fields=bandcamp>; rel="successor-version"`);

    const redirect = await get('/api/v1/artist/discogs:7?x=1');
    expect(redirect.headers.get('location')).toBe(`${ORIGIN}/api/v2/artist/discogs:7?x=1`);
    const followed = await t.fetch(new Request(`${ORIGIN}/api/v2/search?q=moments&limit=2`, { headers: { 'x-api-key': key } }));
    expect(followed.status).toBe(200);
    expect(cutoverHeaders(followed)).toEqual(NONE);
  });

  it('the root index links the migration guide from 60 days before the sunset', async () => {
    const { t } = await walk();
    const root = async () => (await (await t.fetch('/api/v1')).json()) as { sunset_at?: string; _links: Record<string, string> };
    t.clock.set(at(-61));
    expect((await root())._links.migration_guide).toBeUndefined();
    t.clock.set(at(-60));
    expect(await root()).toMatchObject({ sunset_at: '2026-09-01T00:00:00.000Z', _links: { migration_guide: `${ORIGIN}/docs/migration` } });
    t.clock.set(at(-31));
    expect((await root())._links.migration_guide).toBe(`${ORIGIN}/docs/migration`);
    const guide = await t.fetch('/docs/migration');
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-type')).toContain('text/html');
    const text = await guide.text();
    expect(text).toContain('Tue, 01 Sep 2026 00:00:00 GMT');
    expect(text).toContain('<code>GET /api/v1/masters/{id}</code></td><td>demoted</td>');
    expect(text).toContain('<code>GET /api/v1/search</code></td><td>keeper</td><td>GET /api/v2/search</td>');
    expect(text).toContain('<code>GET /api/v1/usage</code></td><td>operational</td>');
  });

  it('without CUTOVER_SUNSET_AT v1 serves unchanged; a malformed one refuses to start', async () => {
    const t = setup({ now: '2030-01-01T00:00:00Z' });
    const key = await t.issueKey({ tier: 'contract_2000' });
    const res = await t.fetch(DEMOTED, { headers: { 'x-api-key': key } });
    expect({ status: res.status, ...cutoverHeaders(res) }).toEqual({ status: 200, ...NONE });
    expect(((await (await t.fetch('/api/v1')).json()) as { _links: Record<string, string> })._links.migration_guide).toBeUndefined();
    expect(() => setup({ config: { cutoverSunsetAt: 'next tuesday' } })).toThrow(/CUTOVER_SUNSET_AT/);
  });
});
