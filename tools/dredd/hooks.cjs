/**
 * Dredd 14 hooks for `npm run contract:dredd` (issue 28; tools/dredd/README.md). Dredd loads our
 * OpenAPI 3.1 documents unmodified and makes one transaction per documented answer; these hooks
 * do two things only, and each is Dredd's own documented use of hooks:
 *
 * 1. Provoke what can be provoked on one running host, skip the rest (with the reason counted):
 *    2xx with the credentials an operation names (admin token, a beacon token from a real
 *    search, a Stripe signature); 401 without them; 304 with the ETag of a first GET; 400 with
 *    an unknown query parameter (OPTIONS: a body framed both ways); 404 with path parameters naming nothing; 405 as PUT; 413 with
 *    a body over the 1 MB cap; 415 with a text/plain body; 431 with a 20 kB header; and in the
 *    `sunset` phase (a host past CUTOVER_SUNSET_AT) the 308s and 410s. Every other status needs
 *    a fault (402/429 quota, 503 storage, 504 deadline, 408 a stalled client, 414 a proxy) that
 *    conformance.test.ts arranges and checks; HEAD cannot be sent by Dredd 14 at all (it hands
 *    its HTTP client an empty body, which that client refuses for HEAD).
 *
 * 2. Judge by the document, not by what Dredd 14's OpenAPI 3.0 parser keeps of it: that parser
 *    drops `required: false` on response headers (every documented header becomes required),
 *    compares Content-Type with its parameters (`application/json; charset=utf-8` is not
 *    `application/json` to it, apiaryio/dredd#553 and #1391), and turns schemas into its own data
 *    structures without 3.1's `null` type unions, anyOf and maps (additionalProperties). So the
 *    expectation is rebuilt from the same document: the response's own JSON Schema (its
 *    components inlined, validated by Dredd's Ajv as draft-07), the headers the document marks
 *    required, and the media type without parameters. Nothing is relaxed beyond the document.
 */
const hooks = require('hooks');
const { readFileSync, appendFileSync } = require('node:fs');
const { createHmac } = require('node:crypto');

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`tools/dredd/hooks.cjs needs ${name} (set by tools/dredd/run.ts)`);
  return value;
};
const doc = JSON.parse(readFileSync(env('DREDD_DOCUMENT'), 'utf8'));
const BASE = env('DREDD_BASE');
const API_KEY = env('DREDD_API_KEY');
const ADMIN_TOKEN = env('DREDD_ADMIN_TOKEN');
const WEBHOOK_SECRET = env('DREDD_WEBHOOK_SECRET');
const PHASE = env('DREDD_PHASE'); // 'current' | 'sunset'
const RESULTS = env('DREDD_RESULTS');
const version = doc.servers?.[0]?.url?.match(/\/api\/(v\d)/)?.[1] ?? (JSON.stringify(doc.paths).includes('/api/v2/') ? 'v2' : 'v1');

/** A `$ref` inside the document, followed until it names no further `$ref`. */
function resolve(node) {
  let current = node;
  while (current && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((at, part) => at[part], doc);
  }
  return current;
}

/** The transaction's operation and documented answer: its name is `<path> > <summary> > <status>[ > <media type>]`. */
function documented(transaction) {
  const parts = transaction.name.split(' > ');
  // The documented method: a 405 is provoked with another one.
  transaction.documentedMethod ??= transaction.request.method;
  const operation = doc.paths[parts[0]]?.[transaction.documentedMethod.toLowerCase()];
  const status = String(transaction.expected.statusCode);
  const response = operation ? resolve(operation.responses[status]) : undefined;
  return { template: parts[0], operation, status, response, mediaType: parts.length > 3 ? parts[parts.length - 1] : undefined };
}

/** What a single running host answers on demand, besides 2xx (the rest need a fault: 402 quota, 429, 5xx, 408, a proxy's 414). */
const PROVOKED = new Set([304, 400, 401, 404, 405, 413, 415, 431]);

/** The operation's path with every parameter naming nothing that exists. */
function missingResource(template, operation) {
  const parameters = [...(operation.parameters ?? []), ...(doc.paths[template].parameters ?? [])].map(resolve);
  return template.replace(/\{([^}]+)\}/g, (_, name) => {
    const schema = resolve(parameters.find((p) => p.name === name && p.in === 'path')?.schema ?? {});
    return schema.type === 'integer' ? '987654321' : 'dredd-no-such-resource';
  });
}

/** Dredd sends to `fullPath` (the server's path prefix + the URI), fixed before hooks run. */
function setUri(transaction, uri) {
  const prefix = transaction.fullPath.slice(0, transaction.fullPath.length - transaction.request.uri.length);
  transaction.request.uri = uri;
  transaction.fullPath = prefix + uri;
}

function skip(transaction, reason) {
  transaction.skip = true;
  transaction.skipReason = reason;
}

const header = (headers, name) => Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
const removeHeader = (headers, name) => {
  const key = header(headers, name);
  if (key) delete headers[key];
};
const setHeader = (headers, name, value) => {
  removeHeader(headers, name);
  headers[name] = value;
};
const securityOf = (operation) => Object.keys((operation.security ?? doc.security ?? [])[0] ?? {})[0];

/** A search answered now: its id, beacon token and first hit (what a beacon refers to). */
async function freshSearch() {
  const answer = await fetch(`${BASE}/api/${version}/search?q=Vince%20Watson`, { headers: { 'x-api-key': API_KEY } });
  const body = await answer.json();
  const hit = (body.hits ?? body.data ?? [])[0];
  return { searchId: body.search_id, token: body.beacon_token, hitId: hit?.id };
}

function stripeSignature(payload) {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${payload}`).digest('hex')}`;
}

async function provoke(transaction) {
  const { operation, status } = documented(transaction);
  const request = transaction.request;
  const headers = request.headers;
  if (!operation) return skip(transaction, 'not in the document');
  if (request.method === 'HEAD') return skip(transaction, 'HEAD: Dredd 14 always sends a body, which its HTTP client refuses for HEAD');
  const code = Number(status);
  const wanted = PHASE === 'sunset' ? code === 308 || code === 410 : (code >= 200 && code < 300) || PROVOKED.has(code);
  if (!wanted)
    return skip(transaction, PHASE === 'sunset' ? 'sunset phase: only 308 and 410' : `${status} needs a fault or another instance (conformance.test.ts)`);
  if (code === 404 && !/\{[^}]+\}/.test(documented(transaction).template))
    return skip(transaction, '404 of a path without parameters (route_not_found: conformance.test.ts)');
  if (code === 415 && !operation.requestBody) return skip(transaction, '415 on an operation without a body');

  const security = securityOf(operation);
  // The example If-None-Match Dredd sends from the parameter's example matches nothing; 304 sets a real one.
  removeHeader(headers, 'If-None-Match');
  if (security === 'AdminToken') setHeader(headers, 'Authorization', `Bearer ${ADMIN_TOKEN}`);
  if (security === 'BeaconToken') {
    const search = await freshSearch();
    const body = JSON.parse(request.body || '{}');
    body.search_id = search.searchId;
    if (Array.isArray(body.hits)) body.hits = [{ id: search.hitId, position: 0 }];
    request.body = JSON.stringify(body);
    setHeader(headers, 'Authorization', `Bearer ${search.token}`);
  }
  if (request.uri.endsWith('/stripe/webhook')) setHeader(headers, 'Stripe-Signature', stripeSignature(request.body));

  if (code === 401) {
    if (security === undefined) return skip(transaction, '401 on an operation that names no credential');
    removeHeader(headers, 'X-API-Key');
    removeHeader(headers, 'Authorization');
  }
  if (code === 400 && request.method === 'OPTIONS') {
    // OPTIONS reads no query (it reaches no gate): the host's bad_request, for a body framed
    // both ways (Content-Length and chunked), which Node's parser refuses.
    request.body = 'abc';
    setHeader(headers, 'Content-Length', '3');
    setHeader(headers, 'Transfer-Encoding', 'chunked');
  } else if (code === 400) {
    // An unknown query parameter: invalid_query (every route names the parameters it takes).
    setUri(transaction, `${request.uri}${request.uri.includes('?') ? '&' : '?'}dredd_unknown_parameter=1`);
  }
  if (code === 404)
    setUri(
      transaction,
      missingResource(documented(transaction).template, operation) + (request.uri.includes('?') ? request.uri.slice(request.uri.indexOf('?')) : ''),
    );
  if (code === 405) {
    request.method = 'PUT';
    request.body = '';
  }
  if (code === 413) {
    // The hosts' cap is 1 MB on every request body (docs/decisions.md §1).
    request.body = JSON.stringify({ padding: 'x'.repeat(1_100_000) });
    setHeader(headers, 'Content-Type', 'application/json');
  }
  if (code === 415) setHeader(headers, 'Content-Type', 'text/plain');
  if (code === 431) setHeader(headers, 'X-Dredd-Padding', 'x'.repeat(20_000));
  if (code === 304) {
    const first = await fetch(BASE + request.uri, { method: request.method, headers });
    const etag = first.headers.get('etag');
    if (!etag) return; // the document promises a 304 the answer gives no ETag for: let it fail
    setHeader(headers, 'If-None-Match', etag);
  }
}

hooks.beforeEach((transaction, done) => {
  provoke(transaction).then(
    () => done(),
    (error) => {
      transaction.fail = `hooks could not arrange the transaction: ${error.message}`;
      done();
    },
  );
});

/** The response schema as Dredd's Ajv (draft-07) reads it: `#/components/…` refs resolve inside it. */
function bodySchema(schema) {
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema, components: { schemas: doc.components?.schemas ?? {} } };
}

hooks.beforeEachValidation((transaction, done) => {
  const { response, mediaType } = documented(transaction);
  const expected = transaction.expected;
  const real = transaction.real ?? { headers: {} };
  if (response) {
    const documentedHeaders = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, node]) => [name.toLowerCase(), resolve(node)]));
    for (const name of Object.keys(expected.headers ?? {})) {
      const lower = name.toLowerCase();
      if (lower === 'content-type') continue;
      if (documentedHeaders[lower]?.required !== true && header(real.headers, name) === undefined) delete expected.headers[name];
    }
    const expectedType = header(expected.headers ?? {}, 'Content-Type');
    const realType = header(real.headers, 'Content-Type');
    if (expectedType && realType) {
      const bare = (value) => String(value).split(';')[0].trim().toLowerCase();
      if (bare(expected.headers[expectedType]) === bare(real.headers[realType])) expected.headers[expectedType] = real.headers[realType];
    }
    const schema = mediaType ? response.content?.[mediaType]?.schema : undefined;
    if (schema) {
      expected.bodySchema = bodySchema(schema);
      delete expected.body;
    }
  }
  done();
});

hooks.afterEach((transaction, done) => {
  const test = transaction.test ?? {};
  appendFileSync(
    RESULTS,
    `${JSON.stringify({
      phase: PHASE,
      name: transaction.name,
      method: transaction.request.method,
      uri: transaction.request.uri,
      expected: transaction.expected.statusCode,
      real: transaction.real?.statusCode,
      status: transaction.skip ? 'skip' : test.status,
      reason: transaction.skipReason,
      message: transaction.skip ? undefined : test.message,
    })}\n`,
  );
  done();
});
