/**
 * The error table (packages/core/src/errors/codes.ts) against the answers themselves: every code
 * is provoked the way a client meets it, and its answer has the row's status, the row's headers
 * and, as `message`, the sentence of the code's OpenAPI example (issue 38 step 2: the examples
 * are the sentences actually sent).
 */
import { type ApiError, type Billing, ERRORS, type ErrorCode, type ErrorRow } from '@catalogue/core';
import { createTestService, type TestService } from '@catalogue/core/memory';
import { databaseUnavailable, poolExhausted, queryTimeout, requestAborted } from '@catalogue/postgres';
import { describe, expect, it } from 'vitest';
import { parserRefusal } from '../../hosts/node/src/client-error.js';
import { fixtureData } from '../support/fixture-data.js';

const SECRET_KEY = 'k'.repeat(64);
const SUNSET = '2026-09-01T00:00:00Z';

/** The sentence a code's OpenAPI example shows. */
function exampleSentence(code: ErrorCode): string {
  const row: ErrorRow = ERRORS[code];
  return (row.example?.message as string | undefined) ?? row.message;
}

interface Answer {
  status: number;
  headers: Headers;
  body: { error: string; message: string; request_id: string };
}

async function answerOf(response: Response | Promise<Response>): Promise<Answer> {
  const res = await response;
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A Billing whose signature check refuses everything: what a forged webhook meets. */
const refusingBilling: Billing = {
  verifyWebhook: async () => null,
  createCheckout: async () => ({ id: 'cs_x', url: 'https://checkout.example/x' }),
  getCheckout: async () => null,
  reportOverage: async () => undefined,
};

/** One way a client meets each code, through the service where the service answers it. */
const PROVOKED: Partial<Record<ErrorCode, (t: TestService, key: string) => Promise<Answer>>> = {
  invalid_query: (t, key) => answerOf(t.fetch('/api/v1/search?q=house&bogus=1', { headers: { 'x-api-key': key } })),
  invalid_facet: (t, key) => answerOf(t.fetch('/api/v1/facets?facets=colour', { headers: { 'x-api-key': key } })),
  invalid_master_id: (t, key) => answerOf(t.fetch('/api/v1/masters/0012', { headers: { 'x-api-key': key } })),
  invalid_batch_size: (t, key) => answerOf(t.fetch('/api/v1/masters/batch', json({ ids: [] }, { 'x-api-key': key }))),
  invalid_body: (t) => answerOf(t.fetch('/api/v1/admin/keys', json({ email: 'nope' }, { authorization: 'Bearer test-admin-token' }))),
  missing_api_key: (t) => answerOf(t.fetch('/api/v1/masters/113')),
  invalid_api_key: (t) => answerOf(t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': 'ck_test_0000000000000000000000000000AAAA' } })),
  revoked_api_key: async (t) => {
    const key = await t.issueKey();
    const [found] = [...t.accounts.keys.values()].filter((k) => k.status === 'active').slice(-1);
    if (found) await t.accounts.revokeKey(found.customer_id, found.id);
    return answerOf(t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }));
  },
  payment_required: async (t) => {
    const key = await t.issueKey();
    for (const customer of t.accounts.customers.values()) if (customer.email === 'dev@example.com') customer.status = 'canceled';
    return answerOf(t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }));
  },
  invalid_beacon_token: (t) =>
    answerOf(t.fetch('/api/v1/search-events/observed', json({ search_id: 'x', hits: [] }, { authorization: 'Bearer bt1.forged.token.0.abc' }))),
  unauthorized: (t) => answerOf(t.fetch('/api/dashboard/keys')),
  not_found: (t, key) => answerOf(t.fetch('/api/v1/artist/999999', { headers: { 'x-api-key': key } })),
  master_not_found: (t, key) => answerOf(t.fetch('/api/v1/masters/999', { headers: { 'x-api-key': key } })),
  method_not_allowed: (t) => answerOf(t.fetch('/api/v1/search', { method: 'DELETE' })),
  payload_too_large: (t, key) => answerOf(t.fetch('/api/v1/masters/batch', json({ ids: [1], pad: 'x'.repeat(100_000) }, { 'x-api-key': key }))),
  unsupported_media_type: (t, key) =>
    answerOf(t.fetch('/api/v1/masters/batch', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/plain' }, body: '{}' })),
  rate_limited: async (t) => {
    const key = await t.issueKey({ tier: 'contract_2000', limits: { burst_per_minute: 1 } });
    await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
    return answerOf(t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }));
  },
  billing_unavailable: (t) => answerOf(t.fetch('/api/v1/stripe/webhook', { method: 'POST', headers: { 'stripe-signature': 't=1,v1=x' }, body: '{}' })),
  not_ready: async () => {
    const t = createTestService({ probes: [{ name: 'database', check: () => Promise.reject(new Error('connection refused')) }] });
    return answerOf(t.fetch('/readyz'));
  },
  gone: async () => {
    const t = createTestService({ data: fixtureData(), config: { cutoverSunsetAt: SUNSET }, now: '2026-10-01T00:00:00Z' });
    const key = await t.issueKey();
    return answerOf(t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } }));
  },
};

/** Codes answered before or beside the service: the refusal as its maker builds it. */
const BUILT: Partial<Record<ErrorCode, () => ApiError>> = {
  bad_request: () => parserRefusal('HPE_INVALID_METHOD'),
  headers_too_large: () => parserRefusal('HPE_HEADER_OVERFLOW'),
  request_timeout: () => parserRefusal('ERR_HTTP_REQUEST_TIMEOUT'),
  pool_exhausted: poolExhausted,
  database_unavailable: databaseUnavailable,
  request_aborted: requestAborted,
  query_timeout: queryTimeout,
};

describe('the error table and the answers', () => {
  it('every code is checked below, one way or the other (route_not_found and internal by their own cases)', () => {
    const covered = new Set([...Object.keys(PROVOKED), ...Object.keys(BUILT), 'route_not_found', 'internal', 'invalid_signature']);
    expect(Object.keys(ERRORS).filter((code) => !covered.has(code))).toEqual([]);
  });

  it.each(Object.keys(PROVOKED) as ErrorCode[])('%s: the row’s status and headers, and the example’s sentence', async (code) => {
    const t = createTestService({ data: fixtureData(), config: { secretKey: SECRET_KEY } });
    const key = await t.issueKey();
    const answer = await (PROVOKED[code] as (t: TestService, key: string) => Promise<Answer>)(t, key);
    const row: ErrorRow = ERRORS[code];
    expect(answer.body.error).toBe(code);
    expect(answer.status).toBe(row.status);
    expect(answer.body.message).toBe(exampleSentence(code));
    for (const [name, value] of Object.entries(row.headers ?? {})) expect(answer.headers.get(name)).toBe(value);
  });

  it.each(Object.keys(BUILT) as ErrorCode[])('%s (built by its host or adapter): the row’s status and the example’s sentence', (code) => {
    const error = (BUILT[code] as () => ApiError)();
    expect(error.code).toBe(code);
    expect(error.status).toBe(ERRORS[code].status);
    expect(error.publicMessage).toBe(exampleSentence(code));
    expect(error.headers).toMatchObject({ ...(ERRORS[code] as ErrorRow).headers });
  });

  it('invalid_signature: a webhook whose signature does not verify', async () => {
    const { createService } = await import('@catalogue/core');
    const { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } = await import('@catalogue/core/memory');
    const service = createService(
      {
        catalogue: createMemoryCatalogue(fixtureData()),
        accounts: createMemoryAccounts(),
        limiter: createMemoryLimiter(),
        billing: refusingBilling,
        logger: { log() {} },
      },
      { baseUrl: 'http://x.test', secretKey: SECRET_KEY },
    );
    const answer = await answerOf(
      service.fetch(new Request('http://x.test/api/v1/stripe/webhook', { method: 'POST', headers: { 'stripe-signature': 't=1,v1=x' }, body: '{}' })),
    );
    expect([answer.status, answer.body.error, answer.body.message]).toEqual([400, 'invalid_signature', exampleSentence('invalid_signature')]);
  });

  it('route_not_found names the path; the /docs assets answer the row’s sentence', async () => {
    const t = createTestService();
    const answer = await answerOf(t.fetch('/api/v1/nowhere'));
    expect([answer.status, answer.body.error, answer.body.message]).toEqual([404, 'route_not_found', 'no route for /api/v1/nowhere']);
    const { createDocsHandler } = await import('@catalogue/host-kit');
    const docs = await answerOf(createDocsHandler()(new Request('http://x.test/docs/assets/nothing.js')) as Response);
    expect([docs.status, docs.body.error, docs.body.message]).toEqual([404, 'route_not_found', exampleSentence('route_not_found')]);
  });

  it('internal: a port that throws is the row’s 500 and sentence, nothing of the error', async () => {
    const { createService, issueCustomerKey } = await import('@catalogue/core');
    const { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } = await import('@catalogue/core/memory');
    const broken = createMemoryCatalogue(fixtureData());
    broken.master = async () => {
      throw new Error('secret detail');
    };
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue: broken, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: 'http://x.test' });
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const answer = await answerOf(service.fetch(new Request('http://x.test/api/v1/masters/113', { headers: { 'x-api-key': issued.plaintext } })));
    expect([answer.status, answer.body.error, answer.body.message]).toEqual([500, 'internal', exampleSentence('internal')]);
  });
});
