/**
 * The contract walk: every documented operation of both documents is called with valid and
 * invalid inputs, and each real answer (status, documented headers, JSON body) is validated
 * against the document with ajv (draft 2020-12). Response schemas are strict, so a field the
 * code serves without documenting it fails here; an undocumented query parameter must be refused.
 */
import type { TestService } from '@catalogue/core/memory';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';
import { answerOf, createContractChecker, documentsOf, type OpenApiDoc } from './support.js';

interface Call {
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The expected status, when the case pins one. */
  status?: number;
}

interface Ctx {
  base: string;
  beacon(): Promise<{ search_id: string; beacon_token: string }>;
}

type Cases = (c: Ctx) => Promise<Call[]> | Call[];

const SECRET = '3c'.repeat(32);
const ADMIN = { authorization: 'Bearer test-admin-token' };

/** Cases for both versions, keyed by operation with {base} standing for /api/v1 or /api/v2. */
const SHARED: Record<string, { valid: Cases; invalid: Cases }> = {
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
const ONLY: Record<string, { valid: Cases; invalid: Cases }> = {
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
const INVALID_ONLY: Record<string, string> = {
  'POST /api/v1/stripe/webhook': 'a valid call needs an event signed with the deployment’s Stripe webhook secret; the billing suite covers it',
};

function casesFor(doc: OpenApiDoc, op: string): { valid: Cases; invalid: Cases } | undefined {
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

async function walker(t: TestService) {
  const key = await t.issueKey({ tier: 'contract_2000' });
  const send = (call: Call) => {
    const method = call.method ?? 'GET';
    const headers: Record<string, string> = { 'x-api-key': key, ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers };
    const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
    return t.fetch(call.path, { method, headers, body });
  };
  const ctx = (base: string): Ctx => ({
    base,
    async beacon() {
      // Tokens are not tied to a version; v2 still answers after the v1 sunset.
      const res = await t.fetch('/api/v2/search?q=moments', { headers: { 'x-api-key': key } });
      return (await res.json()) as { search_id: string; beacon_token: string };
    },
  });
  return { key, send, ctx };
}

function operations(doc: OpenApiDoc): Array<{ op: string; path: string; method: string }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((m) => ({ op: `${m.toUpperCase()} ${path}`, path, method: m.toUpperCase() })),
  );
}

describe('contract walk', () => {
  it('every documented operation, valid and invalid inputs, answers as documented', async () => {
    const t = setup({ now: '2026-06-29T12:00:00Z', config: { secretKey: SECRET } });
    const docs = await documentsOf(t);
    const { send, ctx } = await walker(t);
    const problems: string[] = [];
    let calls = 0;
    for (const [version, doc] of Object.entries(docs)) {
      const checker = createContractChecker(doc);
      const base = `/api/${version}`;
      for (const { op, path, method } of operations(doc)) {
        const cases = casesFor(doc, op);
        if (!cases && !INVALID_ONLY[op]) {
          problems.push(`${op}: documented but not walked (add valid and invalid cases)`);
          continue;
        }
        const record = async (call: Call, expectSuccess: boolean | null) => {
          const answer = await (async () => answerOf(await send({ method, ...call })))();
          calls++;
          for (const p of checker.check(path, method, answer)) problems.push(`${op} ${call.path}: ${p}`);
          if (call.status !== undefined && answer.status !== call.status)
            problems.push(`${op} ${call.path}: expected ${call.status}, got ${answer.status} ${answer.text.slice(0, 200)}`);
          if (expectSuccess === true && (answer.status < 200 || answer.status > 299))
            problems.push(`${op} ${call.path}: valid input answered ${answer.status} ${answer.text.slice(0, 200)}`);
          if (expectSuccess === false && answer.status < 400) problems.push(`${op} ${call.path}: invalid input answered ${answer.status}`);
          return answer;
        };
        const c = ctx(base);
        const valid = cases ? await cases.valid(c) : [];
        for (const call of valid) await record(call, true);
        for (const call of cases ? await cases.invalid(c) : []) await record(call, false);
        // OPTIONS reads neither query nor credentials: it answers every path with its Allow.
        if (method === 'OPTIONS') continue;
        // Generic invalid inputs: an undocumented parameter, and no credentials where some are needed.
        const probe = valid[0] ?? { path: path.replace(/\{(\w+)\}/g, 'x'), method, body: {} };
        const sep = probe.path.includes('?') ? '&' : '?';
        const undocumented = await record({ ...probe, path: `${probe.path}${sep}undocumented_param=1` }, false);
        // HEAD answers the status alone.
        if (undocumented.status !== 400 || (method !== 'HEAD' && (undocumented.body as { error?: string }).error !== 'invalid_query')) {
          problems.push(`${op}: an undocumented parameter answered ${undocumented.status} instead of 400 invalid_query`);
        }
        const operation = doc.paths[path]?.[method.toLowerCase()];
        if (operation && operation.security.length > 0 && valid[0]) {
          const { headers: _dropped, ...bare } = valid[0];
          const res = await answerOf(await t.fetch(bare.path, { method, body: bare.body === undefined ? undefined : JSON.stringify(bare.body) }));
          calls++;
          if (res.status !== 401) problems.push(`${op}: without credentials answered ${res.status}`);
          for (const p of checker.check(path, method, res)) problems.push(`${op} (no credentials): ${p}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(150);
  });

  it('after the v1 sunset, the 308 and 410 answers of v1 are the documented ones', async () => {
    const t = setup({ now: '2026-09-02T00:00:00Z', config: { secretKey: SECRET, cutoverSunsetAt: '2026-09-01T00:00:00Z' } });
    // The v1 document is read before the sunset (afterwards /api/v1/openapi.json itself redirects).
    const { v1 } = await documentsOf(setup({ config: { cutoverSunsetAt: '2026-09-01T00:00:00Z' } }));
    const checker = createContractChecker(v1);
    const { send, ctx } = await walker(t);
    const problems: string[] = [];
    const seen = new Set<number>();
    for (const { op, path, method } of operations(v1)) {
      const cases = casesFor(v1, op);
      if (!cases) continue;
      for (const call of await cases.valid(ctx('/api/v1'))) {
        const answer = await answerOf(await send({ method, ...call }));
        seen.add(answer.status);
        for (const p of checker.check(path, method, answer)) problems.push(`${op} ${call.path}: ${p}`);
      }
    }
    expect(problems).toEqual([]);
    // OPTIONS answers 204 with Allow after the sunset too: it reaches no route.
    expect([...seen].sort()).toEqual([200, 201, 204, 308, 410]);
  });

  it('an undocumented response field fails the check (the walk can fail)', async () => {
    const t = setup({ config: { secretKey: SECRET } });
    const { v2 } = await documentsOf(t);
    const checker = createContractChecker(v2);
    const { send } = await walker(t);
    const answer = await answerOf(await send({ path: '/api/v2/resolve?q=Marla%20Vance' }));
    expect(checker.check('/api/v2/resolve', 'GET', answer)).toEqual([]);
    const sneaky = { ...answer, body: { ...(answer.body as object), internal_score: 0.7 } };
    expect(checker.check('/api/v2/resolve', 'GET', sneaky).join()).toContain('must NOT have additional properties');
    const wrongCode = { ...answer, status: 404, body: { error: 'master_not_found', master_id: 1 } };
    expect(checker.check('/api/v2/resolve', 'GET', wrongCode).join()).toContain('must be equal to one of the allowed values');
  });
});
