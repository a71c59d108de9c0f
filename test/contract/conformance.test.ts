/**
 * Conformance (issue 28): both OpenAPI documents, as a real Node host on PostgreSQL serves them,
 * checked by a validator no one here wrote — openapi-backend (openapistack; its router matches a
 * request to an operation, Ajv validates request parameters and bodies, response bodies and
 * headers against the dereferenced documents). Every operation is driven with the contract walk's
 * valid and invalid calls (cases.ts) and with what an integrator's mistakes and a client's
 * caches send: a missing or malformed key, an unknown parameter, a body over the host's cap or of
 * the wrong media type, a conditional GET, HEAD, OPTIONS, an empty path parameter, headers over
 * the host's limit, a malformed request; and v1's 308/410 on a second instance past
 * CUTOVER_SUNSET_AT. Any answer whose status, media type, body or headers the operation does not
 * describe fails the run; a test of the test shows the check failing on a made-up status.
 */
import { createHmac } from 'node:crypto';
import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, loadCatalogue, type TestDatabase } from '../conformance/databases.js';
import { freePort } from '../hosts/process-host.js';
import { sendRaw } from '../hosts/raw-http.js';
import { issueKeyOverHttp } from '../support/admin-keys.js';
import { fixtureData } from '../support/fixture-data.js';
import { type NodeHostProcess, spawnNodeHost } from '../support/node-host-process.js';
import { ADMIN_TOKEN, type Call, casesFor, operations, SECRET } from './cases.js';

const WEBHOOK_SECRET = 'whsec_conformance_0123456789abcdef';
/** Past at any date this test runs on: the second instance is after the v1 sunset. */
const SUNSET = '2026-01-01T00:00:00Z';

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Seen {
  status: number;
  headers: Record<string, string>;
  text: string;
}

let db: TestDatabase;
let hosts: NodeHostProcess[] = [];
let current: string;
let sunset: string;
let key: string;

async function host(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const started = await spawnNodeHost({
    DATABASE_URL: db.url,
    DATABASE_POOL_MAX: '2',
    ADMIN_TOKEN,
    SECRET_KEY: SECRET,
    STRIPE_SECRET_KEY: 'sk_test_conformance',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    // No Stripe call is made here; if one were, it would go nowhere.
    STRIPE_API_BASE: 'http://127.0.0.1:9',
    PORT: String(port),
    ...env,
  });
  hosts.push(started);
  return `http://localhost:${port}`;
}

beforeAll(async () => {
  db = await createPostgresDatabase({ max: 2 });
  await loadCatalogue(db, fixtureData());
  [current, sunset] = await Promise.all([host({}), host({ CUTOVER_SUNSET_AT: SUNSET })]);
  key = await issueKeyOverHttp(current, ADMIN_TOKEN, { email: 'conformance@label.example' });
}, 120_000);

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.stop()));
  hosts = [];
  await db?.drop();
});

async function send(base: string, req: Sent): Promise<Seen> {
  const res = await fetch(base + req.path, { method: req.method, headers: req.headers, body: req.body, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), text };
}

/** A Stripe-Signature for `payload`, as Stripe computes it (v1: HMAC-SHA256 of `<t>.<payload>`). */
function stripeSignature(payload: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${payload}`).digest('hex')}`;
}

/** One document under openapi-backend: match a request to its operation, validate the answer. */
async function conformanceOf(definition: Document) {
  // `quick`: skip its check of the document itself, which is OpenAPI 3.0's schema (the 3.1
  // documents are checked by an OpenAPI 3.1 validator in documents.test.ts); requests and
  // answers are still validated, each validator compiled when first used.
  const api = new OpenAPIBackend({
    definition,
    strict: true,
    quick: true,
    validate: true,
    ignoreTrailingSlashes: true,
    // JSON Schema's formats (uri, email, date-time), which Ajv leaves to ajv-formats.
    customizeAjv: (ajv) => addFormats(ajv as never) as never,
  });
  await api.init();
  const operationById = new Map(api.router.getOperations().map((op) => [op.operationId as string, op]));
  return {
    api,
    operation(id: string): Operation {
      const op = operationById.get(id);
      if (!op) throw new Error(`no operation ${id}`);
      return op;
    },
    /** The request as openapi-backend reads it, and the operation its router matches (undefined: none). */
    match(req: Sent): Operation | undefined {
      const url = new URL(req.path, 'http://x');
      return api.router.matchOperation({ method: req.method, path: url.pathname, query: url.search.slice(1), headers: req.headers, body: req.body });
    },
    requestProblems(req: Sent, op: Operation): string[] {
      const url = new URL(req.path, 'http://x');
      const result = api.validateRequest(
        {
          method: req.method,
          path: url.pathname,
          query: url.search.slice(1),
          headers: req.headers,
          body: req.body === undefined ? undefined : tryJson(req.body),
        },
        op,
      );
      return (result.errors ?? []).map((e) => `request ${e.instancePath} ${e.message}`);
    },
    /** What the operation does not describe in this answer: its status, media type, body or a header's value. */
    answerProblems(op: Operation, seen: Seen, method: string): string[] {
      const response = op.responses?.[String(seen.status)] as { content?: Record<string, unknown> } | undefined;
      if (!response) return [`${op.operationId} answered ${seen.status}, which it does not document (${Object.keys(op.responses ?? {}).join(', ')})`];
      const problems: string[] = [];
      const media = (seen.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      if (seen.text !== '') {
        if (!response.content?.[media])
          problems.push(
            `${op.operationId} ${seen.status} answered ${media || 'a body without Content-Type'}, documented: ${Object.keys(response.content ?? {}).join(', ') || 'no body'}`,
          );
        else {
          const body = api.validator.validateResponse(JSON.parse(seen.text), op, seen.status);
          for (const e of body.errors ?? []) problems.push(`${op.operationId} ${seen.status} body ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
        }
      } else if (response.content && method !== 'HEAD') {
        problems.push(`${op.operationId} ${seen.status} documents a body and answered none`);
      }
      const headers = api.validator.validateResponseHeaders(seen.headers, op, { statusCode: seen.status });
      for (const e of headers.errors ?? []) problems.push(`${op.operationId} ${seen.status} header ${e.instancePath} ${e.message}`);
      return problems;
    },
  };
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Conformance = Awaited<ReturnType<typeof conformanceOf>>;

/** Sends one call to `base` and checks the answer against the operation the router matches (or `fallback`). */
async function exchange(
  c: Conformance,
  base: string,
  req: Sent,
  problems: string[],
  options: { fallback?: Operation; expect?: number | ((status: number) => boolean); requestValid?: boolean } = {},
): Promise<Seen> {
  const seen = await send(base, req);
  const where = `${req.method} ${req.path.slice(0, 120)}`;
  const op = c.match(req) ?? options.fallback;
  if (!op) {
    problems.push(`${where}: no operation of the document matches it (answered ${seen.status})`);
    return seen;
  }
  for (const p of c.answerProblems(op, seen, req.method)) problems.push(`${where}: ${p}`);
  if (options.requestValid) for (const p of c.requestProblems(req, op)) problems.push(`${where}: ${p}`);
  const expected = options.expect;
  if (typeof expected === 'number' && seen.status !== expected) problems.push(`${where}: expected ${expected}, got ${seen.status} ${seen.text.slice(0, 160)}`);
  if (typeof expected === 'function' && !expected(seen.status)) problems.push(`${where}: unexpected ${seen.status} ${seen.text.slice(0, 160)}`);
  return seen;
}

function sentOf(call: Call, method: string, credentials: Record<string, string>): Sent {
  const body = call.body === undefined ? undefined : typeof call.body === 'string' ? call.body : JSON.stringify(call.body);
  const headers: Record<string, string> = { ...credentials, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers };
  return { method: call.method ?? method, path: call.path, headers, ...(body !== undefined && method !== 'HEAD' ? { body } : {}) };
}

const MALFORMED_KEY = `ck_live_${'A'.repeat(32)}`;

describe('conformance: a Node host on PostgreSQL against its own documents, checked by openapi-backend', () => {
  it('v1 and v2: every operation, valid and invalid requests, answers only what its document describes', async () => {
    const documents = {
      v1: JSON.parse((await send(current, { method: 'GET', path: '/api/v1/openapi.json', headers: {} })).text) as Document,
      v2: JSON.parse((await send(current, { method: 'GET', path: '/api/v2/openapi.json', headers: {} })).text) as Document,
    };
    const problems: string[] = [];
    const statuses = new Set<number>();
    let calls = 0;
    const track = async (c: Conformance, base: string, req: Sent, options: Parameters<typeof exchange>[4] = {}) => {
      const seen = await exchange(c, base, req, problems, options);
      statuses.add(seen.status);
      calls++;
      return seen;
    };
    const withKey = { 'x-api-key': key };
    for (const [version, definition] of Object.entries(documents)) {
      const c = await conformanceOf(definition);
      const base = `/api/${version}`;
      const beacon = async () => JSON.parse((await send(current, { method: 'GET', path: '/api/v2/search?q=moments', headers: withKey })).text);
      const ctx = { base, beacon };
      for (const { op, path, method } of operations(definition as never)) {
        const operation = c.match({ method, path: path.replace(/\{(\w+)\}/g, (_m, name) => exampleOf(definition, path, method, name)), headers: {} });
        const cases = path.endsWith('/stripe/webhook') ? webhookCases(definition) : casesFor(definition as never, op);
        const valid = cases ? await cases.valid(ctx) : [];
        for (const call of valid) await track(c, current, sentOf(call, method, withKey), { expect: (s) => s < 300, requestValid: method !== 'OPTIONS' });
        for (const call of cases ? await cases.invalid(ctx) : [])
          await track(c, current, sentOf(call, method, withKey), { expect: call.status ?? ((s) => s >= 400) });
        if (method === 'OPTIONS') continue;
        const probe = valid[0] ?? { path: path.replace(/\{(\w+)\}/g, (_m, name) => exampleOf(definition, path, method, name)), body: {} };
        const secured = ((operation?.security ?? []) as unknown[]).length > 0;
        const sep = probe.path.includes('?') ? '&' : '?';
        // An unknown parameter.
        await track(c, current, sentOf({ ...probe, path: `${probe.path}${sep}unknown_param=1` }, method, withKey), { expect: 400 });
        if (secured && operation?.security?.some((s) => 'ApiKey' in s)) {
          // No key, and a key of the right shape whose checksum fails.
          await track(c, current, sentOf(probe, method, {}), { expect: 401 });
          await track(c, current, sentOf(probe, method, { 'x-api-key': MALFORMED_KEY }), { expect: 401 });
        }
        if (operation?.requestBody) {
          const json = sentOf(probe, method, withKey);
          // The wrong media type (the webhook reads bytes and lets the signature decide, docs/decisions.md §6).
          if (!path.endsWith('/stripe/webhook'))
            await track(c, current, { ...json, headers: { ...json.headers, 'content-type': 'text/plain;charset=UTF-8' } }, { expect: 415 });
          // Over the host's 1 MB cap, refused on its declared length.
          await track(c, current, { ...json, body: JSON.stringify({ pad: 'x'.repeat(1_100_000) }) }, { expect: 413 });
        }
        if (operation?.parameters?.some((p) => 'name' in p && p.name === 'If-None-Match') && valid[0]) {
          // A conditional GET: the ETag of the 200 answers 304 without a body.
          const first = await track(c, current, sentOf(valid[0], method, withKey), { expect: 200 });
          const etag = first.headers.etag;
          if (!etag) problems.push(`${op}: a cached GET without ETag`);
          else await track(c, current, sentOf(valid[0], method, { ...withKey, 'if-none-match': etag }), { expect: 304 });
        }
        if (path.includes('{') && operation) {
          // An empty path parameter: whatever the router makes of it, the answer is one the operation (or the path it becomes) documents.
          const empty = path.replace(/\{\w+\}/, '');
          await track(c, current, sentOf({ path: empty }, method, withKey), { fallback: operation, expect: (s) => s === 404 || s === 405 || s < 300 });
        }
      }
      // The host's own refusals, on any operation: headers over its limit, a malformed request.
      const search = c.match({ method: 'GET', path: `${base}/search`, headers: {} }) as Operation;
      const big = await sendRaw(
        current,
        `GET ${base}/search?q=moments HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'x'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
      );
      const malformed = await sendRaw(current, `GET ${base}/search?q=moments HTTP/1.1\r\nHost: bad host\r\nConnection: close\r\n\r\n`);
      for (const [answer, status] of [
        [big, 431],
        [malformed, 400],
      ] as const) {
        const seen = { status: answer.status, headers: answer.headers, text: new TextDecoder().decode(answer.body) };
        calls++;
        statuses.add(seen.status);
        if (seen.status !== status) problems.push(`raw ${status}: got ${seen.status}`);
        for (const p of c.answerProblems(search, seen, 'GET')) problems.push(`raw ${status}: ${p}`);
      }
      // After the v1 sunset (second instance): keepers answer 308, demoted routes 410, as v1 documents them.
      if (version === 'v1') {
        for (const { op, method } of operations(definition as never)) {
          if (method === 'OPTIONS') continue;
          const cases = casesFor(definition as never, op);
          for (const call of cases ? (await cases.valid(ctx)).slice(0, 1) : []) await track(c, sunset, sentOf(call, method, withKey));
        }
      }
    }
    expect(problems).toEqual([]);
    for (const status of [200, 201, 202, 204, 304, 308, 400, 401, 404, 410, 413, 415, 431]) expect(statuses, `status ${status} provoked`).toContain(status);
    expect(calls).toBeGreaterThan(500);
  }, 120_000);

  it('fails on an answer the document does not describe (a test of the test)', async () => {
    const c = await conformanceOf(JSON.parse((await send(current, { method: 'GET', path: '/api/v2/openapi.json', headers: {} })).text) as Document);
    const req: Sent = { method: 'GET', path: '/api/v2/resolve?q=Vince%20Watson', headers: { 'x-api-key': key } };
    const op = c.match(req) as Operation;
    const seen = await send(current, req);
    expect(c.answerProblems(op, seen, 'GET')).toEqual([]);
    // A status the operation does not document.
    expect(c.answerProblems(op, { ...seen, status: 418 }, 'GET').join()).toMatch(/answered 418, which it does not document/);
    // A field the record does not have, a header of the wrong type, a body of another media type.
    const sneaky = { ...seen, text: JSON.stringify({ ...JSON.parse(seen.text), internal_score: 0.7 }) };
    expect(c.answerProblems(op, sneaky, 'GET').join()).toMatch(/additional properties/);
    expect(c.answerProblems(op, { ...seen, headers: { ...seen.headers, 'x-ratelimit-limit': 'many' } }, 'GET').join()).toMatch(/x-ratelimit-limit/);
    expect(c.answerProblems(op, { ...seen, headers: { ...seen.headers, 'content-type': 'text/html' } }, 'GET').join()).toMatch(/answered text\/html/);
    // A request the document does not describe is seen as such.
    expect(c.requestProblems({ ...req, path: '/api/v2/resolve?limit=abc' }, op).join()).not.toBe('');
  });
});

/**
 * The webhook, signed with the deployment's secret: the document's own example event, as a type
 * without effects (so no Stripe call is made), is acknowledged.
 */
function webhookCases(definition: Document) {
  const path = '/api/v1/stripe/webhook';
  type Item = { post?: { requestBody?: { content?: Record<string, { example?: Record<string, unknown> }> } } };
  const example = (definition.paths?.[path] as Item | undefined)?.post?.requestBody?.content?.['application/json']?.example ?? {};
  const event = JSON.stringify({ ...example, type: 'customer.created', data: { object: { id: 'cus_R3xVw2kq9Lm1Ab', object: 'customer' } } });
  return {
    valid: (): Call[] => [{ path, method: 'POST', body: event, headers: { 'stripe-signature': stripeSignature(event) } }],
    invalid: (): Call[] => [
      { path, method: 'POST', body: event, headers: { 'stripe-signature': stripeSignature(`${event} `) }, status: 400 },
      { path, method: 'POST', body: event, status: 400 },
      { path, method: 'POST', body: 'x'.repeat(64 * 1024 + 1), headers: { 'stripe-signature': 't=1,v1=00' }, status: 413 },
    ],
  };
}

/** The example of a path parameter, from the document itself. */
function exampleOf(definition: Document, path: string, method: string, name: string): string {
  const item = definition.paths?.[path] as Record<string, { parameters?: Array<{ name: string; in: string; example?: unknown }> }> | undefined;
  const op = item?.[method.toLowerCase()];
  const p = op?.parameters?.find((x) => x.in === 'path' && x.name === name);
  return String(p?.example ?? 'x');
}
