/**
 * The contract walk's cases: valid and invalid calls of every documented operation, keyed by
 * operation (`{base}` stands for /api/v1 or /api/v2), against the fixture catalogue
 * (test/support/fixture-data.ts). The walk over the service in memory (walk.test.ts) and the
 * conformance run over a Node host on PostgreSQL (conformance.test.ts) drive the same calls.
 */
import type { OpenApiDoc } from './support.js';

export interface Call {
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The expected status, when the case pins one. */
  status?: number;
}

export interface Ctx {
  base: string;
  beacon(): Promise<{ search_id: string; beacon_token: string }>;
}

export type Cases = (c: Ctx) => Promise<Call[]> | Call[];

export const SECRET = '3c'.repeat(32);
/** A host refuses an ADMIN_TOKEN under 32 characters (docs/decisions.md §1). */
export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Cases for both versions, keyed by operation with {base} standing for /api/v1 or /api/v2. */
export const SHARED: Record<string, { valid: Cases; invalid: Cases }> = {
  'GET {base}': { valid: ({ base }) => [{ path: base }], invalid: () => [] },
  'GET {base}/openapi.json': { valid: ({ base }) => [{ path: `${base}/openapi.json` }], invalid: () => [] },
  'GET {base}/search': {
    valid: ({ base }) => [{ path: `${base}/search?q=moments` }, { path: `${base}/search?genre=Rock&limit=1` }, { path: `${base}/search?type=artist&limit=2` }],
    invalid: ({ base }) => [
      { path: `${base}/search?limit=101`, status: 400 },
      { path: `${base}/search?year_from=2000&year_to=1990`, status: 400 },
      { path: `${base}/search?type=song`, status: 400 },
    ],
  },
  'GET {base}/facets': {
    valid: ({ base }) => [{ path: `${base}/facets?facets=genre,style` }, { path: `${base}/facets?facets=label&country=Germany` }],
    invalid: ({ base }) => [{ path: `${base}/facets?facets=genre,colour`, status: 400 }],
  },
  'GET {base}/breakouts': {
    valid: ({ base }) => [{ path: `${base}/breakouts?window=90d` }],
    invalid: ({ base }) => [{ path: `${base}/breakouts?window=7d`, status: 400 }],
  },
  'GET {base}/tastemakers': {
    valid: ({ base }) => [{ path: `${base}/tastemakers?kind=label` }],
    invalid: ({ base }) => [{ path: `${base}/tastemakers?kind=venue`, status: 400 }],
  },
  'GET {base}/tastemakers/ones-to-watch': {
    valid: ({ base }) => [{ path: `${base}/tastemakers/ones-to-watch` }],
    invalid: ({ base }) => [{ path: `${base}/tastemakers/ones-to-watch?limit=0`, status: 400 }],
  },
  'GET {base}/resolve': {
    valid: ({ base }) => [
      { path: `${base}/resolve?q=Marla%20Vance` },
      { path: `${base}/resolve?discogs=master/113` },
      { path: `${base}/resolve?url=https://www.discogs.com/artist/3225` },
    ],
    invalid: ({ base }) => [
      { path: `${base}/resolve`, status: 400 },
      { path: `${base}/resolve?q=zzqqxx`, status: 404 },
      { path: `${base}/resolve?q=a&mbid=b`, status: 400 },
    ],
  },
  'GET {base}/artist/{key}': {
    valid: ({ base }) => [{ path: `${base}/artist/marla-vance` }, { path: `${base}/artist/discogs:3225` }],
    invalid: ({ base }) => [
      { path: `${base}/artist/no-such-artist`, status: 404 },
      { path: `${base}/artist/Not%20A%20Key`, status: 400 },
    ],
  },
  'GET {base}/label/{key}': {
    valid: ({ base }) => [{ path: `${base}/label/svek` }],
    invalid: ({ base }) => [{ path: `${base}/label/no-such-label`, status: 404 }],
  },
  'GET {base}/dossier/manifest': { valid: ({ base }) => [{ path: `${base}/dossier/manifest` }], invalid: () => [] },
  'GET {base}/dossier/artist/{slug}': {
    valid: ({ base }) => [{ path: `${base}/dossier/artist/vince-watson` }],
    invalid: ({ base }) => [
      { path: `${base}/dossier/artist/UPPER`, status: 400 },
      { path: `${base}/dossier/artist/nobody`, status: 404 },
    ],
  },
  'GET {base}/dossier/label/{slug}': {
    valid: ({ base }) => [{ path: `${base}/dossier/label/planet-e` }],
    invalid: ({ base }) => [{ path: `${base}/dossier/label/nobody`, status: 404 }],
  },
  'GET {base}/dossier/festival/{slug}': {
    valid: ({ base }) => [{ path: `${base}/dossier/festival/kestrel-fields` }],
    invalid: ({ base }) => [{ path: `${base}/dossier/festival/nobody`, status: 404 }],
  },
  'POST {base}/search-events/observed': {
    valid: async ({ base, beacon }) => {
      const b = await beacon();
      return [
        {
          path: `${base}/search-events/observed`,
          method: 'POST',
          headers: { authorization: `Bearer ${b.beacon_token}` },
          body: { search_id: b.search_id, hits: [{ id: 113, position: 0 }] },
        },
      ];
    },
    invalid: async ({ base, beacon }) => {
      const b = await beacon();
      const auth = { authorization: `Bearer ${b.beacon_token}` };
      return [
        {
          path: `${base}/search-events/observed`,
          method: 'POST',
          headers: { authorization: 'Bearer bt1.forged' },
          body: { search_id: b.search_id, hits: [{ id: 1, position: 0 }] },
          status: 401,
        },
        {
          path: `${base}/search-events/observed`,
          method: 'POST',
          headers: auth,
          body: { search_id: b.search_id, hits: [{ id: -1, position: 0 }] },
          status: 400,
        },
        { path: `${base}/search-events/observed`, method: 'POST', headers: auth, body: 'x'.repeat(17_000), status: 413 },
      ];
    },
  },
  'POST {base}/search-events/refined': {
    valid: async ({ base, beacon }) => {
      const b = await beacon();
      return [
        {
          path: `${base}/search-events/refined`,
          method: 'POST',
          headers: { authorization: `Bearer ${b.beacon_token}` },
          body: { search_id: b.search_id, q: 'moments in time' },
        },
      ];
    },
    invalid: async ({ base, beacon }) => {
      const b = await beacon();
      return [
        {
          path: `${base}/search-events/refined`,
          method: 'POST',
          headers: { authorization: `Bearer ${b.beacon_token}` },
          body: { search_id: b.search_id },
          status: 400,
        },
      ];
    },
  },
};

/** Operations of one version only. */
export const ONLY: Record<string, { valid: Cases; invalid: Cases }> = {
  'GET /api/v2/artist/{key}': {
    valid: () => [{ path: '/api/v2/artist/marla-vance' }, { path: '/api/v2/artist/discogs:7?fields=identity,discography' }],
    invalid: () => [
      { path: '/api/v2/artist/marla-vance?fields=fans', status: 400 },
      { path: '/api/v2/artist/no-such-artist', status: 404 },
    ],
  },
  'GET /api/v1/dossier/master/{id}': {
    valid: () => [{ path: '/api/v1/dossier/master/113' }],
    invalid: () => [
      { path: '/api/v1/dossier/master/0', status: 400 },
      { path: '/api/v1/dossier/master/999', status: 404 },
    ],
  },
  'GET /api/v1/masters/{id}': {
    valid: () => [{ path: '/api/v1/masters/113' }],
    invalid: () => [
      { path: '/api/v1/masters/abc', status: 400 },
      { path: '/api/v1/masters/999', status: 404 },
    ],
  },
  'POST /api/v1/masters/batch': {
    valid: () => [{ path: '/api/v1/masters/batch', method: 'POST', body: { ids: [113, 999, 113] } }],
    invalid: () => [
      { path: '/api/v1/masters/batch', method: 'POST', body: { ids: [] }, status: 400 },
      { path: '/api/v1/masters/batch', method: 'POST', body: '{', status: 400 },
      { path: '/api/v1/masters/batch', method: 'POST', body: { ids: [0] }, status: 400 },
      { path: '/api/v1/masters/batch', method: 'POST', body: { ids: [1], more: true }, status: 400 },
      { path: '/api/v1/masters/batch', method: 'POST', body: 'x'.repeat(40_000), status: 413 },
    ],
  },
  'GET /api/v1/bandcamp/release': {
    valid: () => [
      { path: '/api/v1/bandcamp/release?artist=marla-vance' },
      { path: '/api/v1/bandcamp/release?url=https://marlavance.bandcamp.com/album/velvet-hours' },
    ],
    invalid: () => [
      { path: '/api/v1/bandcamp/release', status: 400 },
      { path: '/api/v1/bandcamp/release?url=https://example.com/x', status: 400 },
    ],
  },
  'GET /api/v1/bandcamp': { valid: () => [{ path: '/api/v1/bandcamp?limit=2' }], invalid: () => [{ path: '/api/v1/bandcamp?cursor=x', status: 400 }] },
  'GET /api/v1/bandcamp/{artistKey}': {
    valid: () => [{ path: '/api/v1/bandcamp/marla-vance' }],
    invalid: () => [{ path: '/api/v1/bandcamp/sable-ortiz', status: 404 }],
  },
  'GET /api/v1/usage': { valid: () => [{ path: '/api/v1/usage' }], invalid: () => [] },
  'GET /healthz': { valid: () => [{ path: '/healthz' }], invalid: () => [] },
  'GET /readyz': { valid: () => [{ path: '/readyz' }], invalid: () => [] },
  'GET /api/v1/wayfind': {
    valid: () => [
      { path: '/api/v1/wayfind?path=/api/v1/masters/113' },
      { path: '/api/v1/wayfind?path=/api/v1/search%3Fq%3Dx' },
      { path: '/api/v1/wayfind?path=/api/v1/usage' },
    ],
    invalid: () => [
      { path: '/api/v1/wayfind?path=/elsewhere', status: 400 },
      { path: '/api/v1/wayfind?path=/api/v1/masters/999', status: 404 },
    ],
  },
  'GET /api/v1/wayfind/master/{id}': {
    valid: () => [{ path: '/api/v1/wayfind/master/500' }],
    invalid: () => [
      { path: '/api/v1/wayfind/master/01', status: 400 },
      { path: '/api/v1/wayfind/master/999', status: 404 },
    ],
  },
  'POST /api/v1/admin/keys': {
    valid: () => [{ path: '/api/v1/admin/keys', method: 'POST', headers: ADMIN, body: { email: 'label@example.com', name: 'A Label' } }],
    invalid: () => [
      { path: '/api/v1/admin/keys', method: 'POST', headers: { authorization: 'Bearer wrong' }, body: { email: 'x@example.com' }, status: 401 },
      { path: '/api/v1/admin/keys', method: 'POST', headers: ADMIN, body: { email: 'not-an-email' }, status: 400 },
    ],
  },
};

/** Documented operations walked with invalid inputs only, and why. */
export const INVALID_ONLY: Record<string, string> = {
  'POST /api/v1/stripe/webhook': 'a valid call needs an event signed with the deployment’s Stripe webhook secret; the billing suite covers it',
};

export function casesFor(doc: OpenApiDoc, op: string): { valid: Cases; invalid: Cases } | undefined {
  const base = doc.openapi && Object.keys(doc.paths).some((p) => p.startsWith('/api/v2')) ? '/api/v2' : '/api/v1';
  const [method, path] = op.split(' ') as [string, string];
  // HEAD is walked with its GET's cases; OPTIONS with one call of the path's first operation.
  if (method === 'HEAD') return casesFor(doc, `GET ${path}`);
  if (method === 'OPTIONS') {
    const first = Object.keys(doc.paths[path] ?? {}).find((m) => m !== 'head' && m !== 'options') ?? 'get';
    const cases = casesFor(doc, `${first.toUpperCase()} ${path}`);
    return {
      valid: async (c) => (cases ? (await cases.valid(c)).slice(0, 1).map(({ path: p }) => ({ path: p })) : [{ path: path.replace(/\{(\w+)\}/g, 'x') }]),
      invalid: () => [],
    };
  }
  return ONLY[op] ?? SHARED[op.replace(base, '{base}')];
}

export function operations(doc: OpenApiDoc): Array<{ op: string; path: string; method: string }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((m) => ({ op: `${m.toUpperCase()} ${path}`, path, method: m.toUpperCase() })),
  );
}
