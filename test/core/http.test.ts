import { createService } from '@catalogue/core';
import { createMemoryAccounts, createMemoryCatalogue, createMemoryLimiter } from '@catalogue/core/memory';
import { describe, expect, it } from 'vitest';
import { fixtureData } from '../support/fixture-data.js';
import { expectError, setup } from '../support/service.js';

describe('HTTP behaviour', () => {
  it('unknown path → 404 route_not_found', async () => {
    const t = setup();
    await expectError(await t.fetch('/api/v1/nope'), 404, 'route_not_found');
    await expectError(await t.fetch('/'), 404, 'route_not_found');
    await expectError(await t.fetch('/api/v3/search'), 404, 'route_not_found');
  });

  it('wrong method → 405 with Allow', async () => {
    const t = setup();
    const res = await t.fetch('/api/v1/search', { method: 'POST', body: '{}' });
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    const batch = await t.fetch('/api/v1/masters/batch');
    await expectError(batch, 405, 'method_not_allowed');
    expect(batch.headers.get('allow')).toBe('POST');
    await expectError(await t.fetch('/api/v1/masters/113', { method: 'DELETE' }), 405, 'method_not_allowed');
  });

  it('a JSON route refuses a body without a JSON media type: 415 unsupported_media_type naming Content-Type (issue 28 item 2)', async () => {
    const t = setup({ config: { secretKey: '3c'.repeat(32), adminToken: 'test-admin-token' } });
    const key = await t.issueKey();
    const search = (await (await t.fetch('/api/v1/search?q=moments', { headers: { 'x-api-key': key } })).json()) as { search_id: string; beacon_token: string };
    const calls: Array<[string, Record<string, string>, unknown]> = [
      ['/api/v1/masters/batch', { 'x-api-key': key }, { ids: [113] }],
      ['/api/v1/admin/keys', { authorization: 'Bearer test-admin-token' }, { email: 'ops@label.example' }],
      ['/api/v1/search-events/refined', { authorization: `Bearer ${search.beacon_token}` }, { search_id: search.search_id, q: 'moments in time' }],
      ['/api/v2/search-events/observed', { authorization: `Bearer ${search.beacon_token}` }, { search_id: search.search_id, hits: [] }],
    ];
    for (const [path, headers, body] of calls) {
      const text = JSON.stringify(body);
      for (const type of ['text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', null]) {
        const init = new Request(`http://localhost${path}`, { method: 'POST', headers, body: text });
        if (type === null) init.headers.delete('content-type');
        else init.headers.set('content-type', type);
        const res = await t.fetch(init);
        const error = await expectError(res, 415, 'unsupported_media_type');
        expect(error.details, `${path} ${type}`).toEqual([{ path: 'Content-Type', message: expect.stringContaining('application/json') }]);
      }
      for (const type of ['application/json', 'Application/JSON; charset=utf-8']) {
        const res = await t.fetch(path, { method: 'POST', headers: { ...headers, 'content-type': type }, body: text });
        expect(res.status, `${path} ${type}`).toBeLessThan(300);
      }
    }
  });

  it('HEAD answers like GET without a body', async () => {
    const t = setup();
    const key = await t.issueKey();
    const get = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
    const head = await t.fetch('/api/v1/masters/113', { method: 'HEAD', headers: { 'x-api-key': key } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-ratelimit-limit')).toBe('60');
    const missing = await t.fetch('/api/v1/masters/113', { method: 'HEAD' });
    expect(missing.status).toBe(401);
    expect(await missing.text()).toBe('');
    expect(missing.headers.get('cache-control')).toBe('no-store');
  });

  it('every response carries X-Request-Id, unique per request', async () => {
    const t = setup();
    const key = await t.issueKey();
    const ids = new Set<string>();
    for (const path of ['/api/v1', '/api/v1/masters/113', '/api/v1/nope', '/api/v1/masters/0']) {
      const res = await t.fetch(path, { headers: { 'x-api-key': key } });
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9A-Z]{26}$/);
      ids.add(id as string);
    }
    expect(ids.size).toBe(4);
  });

  it('unknown master → 404 master_not_found carrying master_id; bad id → 400 invalid_master_id', async () => {
    const t = setup();
    const key = await t.issueKey();
    const body = await expectError(await t.fetch('/api/v1/masters/424242', { headers: { 'x-api-key': key } }), 404, 'master_not_found');
    expect(body.master_id).toBe(424242);
    for (const bad of ['0', '-1', '1.5', '1e3', '+5', '%2012', '2000000001', 'abc', '0012']) {
      await expectError(await t.fetch(`/api/v1/masters/${bad}`, { headers: { 'x-api-key': key } }), 400, 'invalid_master_id');
      await expectError(await t.fetch(`/api/v1/dossier/master/${bad}`, { headers: { 'x-api-key': key } }), 400, 'invalid_master_id');
    }
  });

  it('an unexpected error → 500 internal that leaks neither message nor stack', async () => {
    const catalogue = createMemoryCatalogue(fixtureData());
    catalogue.master = async () => {
      throw new Error('secret connection string postgres://u:p@db/x');
    };
    const logs: unknown[] = [];
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log: (r) => logs.push(r) } }, { baseUrl: 'http://x.test' });
    const { issueCustomerKey } = await import('@catalogue/core');
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const res = await service.fetch(new Request('http://x.test/api/v1/masters/113', { headers: { 'x-api-key': issued.plaintext } }));
    const text = await res.clone().text();
    await expectError(res, 500, 'internal');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('Error');
    expect(JSON.stringify(logs)).toContain('secret connection string');
  });

  it('the deadline cancels a hung call → 504 request_aborted', async () => {
    const catalogue = createMemoryCatalogue(fixtureData());
    let seen: AbortSignal | undefined;
    // The search routes call searchPage when the store has it: without it, this search.
    delete catalogue.searchPage;
    catalogue.search = (_q, options) => {
      seen = options?.signal;
      return new Promise(() => {});
    };
    const accounts = createMemoryAccounts();
    const service = createService(
      { catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } },
      { baseUrl: 'http://x.test', requestDeadlineMs: 50 },
    );
    const { issueCustomerKey } = await import('@catalogue/core');
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const res = await service.fetch(new Request('http://x.test/api/v1/search?q=x', { headers: { 'x-api-key': issued.plaintext } }));
    await expectError(res, 504, 'request_aborted');
    expect(seen?.aborted).toBe(true);
  });

  it('an admission that outlives the deadline frees its slot at once and never starts the handler', async () => {
    const catalogue = createMemoryCatalogue(fixtureData());
    let handlerCalls = 0;
    const master = catalogue.master.bind(catalogue);
    catalogue.master = (id, options) => {
      handlerCalls++;
      return master(id, options);
    };
    const limiter = createMemoryLimiter();
    let releases = 0;
    let admitted: () => void = () => {};
    const late = new Promise<void>((resolve) => {
      admitted = resolve;
    });
    const admit = limiter.admit.bind(limiter);
    limiter.admit = async (request) => {
      const decision = await admit(request);
      await new Promise((r) => setTimeout(r, 120)); // the store answers after the 50 ms deadline
      admitted();
      return { ...decision, release: async () => void releases++ };
    };
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue, accounts, limiter, logger: { log() {} } }, { baseUrl: 'http://x.test', requestDeadlineMs: 50 });
    const { issueCustomerKey } = await import('@catalogue/core');
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const res = await service.fetch(new Request('http://x.test/api/v1/masters/113', { headers: { 'x-api-key': issued.plaintext } }));
    await expectError(res, 504, 'request_aborted');
    await late;
    await new Promise((r) => setTimeout(r, 10));
    expect(releases).toBe(1);
    expect(handlerCalls).toBe(0);
  });

  it('a client disconnect aborts the request signal', async () => {
    const catalogue = createMemoryCatalogue(fixtureData());
    let seen: AbortSignal | undefined;
    // The search routes call searchPage when the store has it: without it, this search.
    delete catalogue.searchPage;
    catalogue.search = (_q, options) => {
      seen = options?.signal;
      return new Promise(() => {});
    };
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: 'http://x.test' });
    const { issueCustomerKey } = await import('@catalogue/core');
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const client = new AbortController();
    const pending = service.fetch(new Request('http://x.test/api/v1/search?q=x', { headers: { 'x-api-key': issued.plaintext }, signal: client.signal }));
    await new Promise((r) => setTimeout(r, 10));
    client.abort();
    await expectError(await pending, 504, 'request_aborted');
    expect(seen?.aborted).toBe(true);
  });
});

describe('errors raised by the storage ports reach the client unchanged', () => {
  it.each([
    [503, 'pool_exhausted', { 'retry-after': '5' }],
    [504, 'query_timeout', {}],
    [504, 'request_aborted', {}],
  ] as const)('%i %s', async (status, code, headers) => {
    const { ApiError, issueCustomerKey } = await import('@catalogue/core');
    const catalogue = createMemoryCatalogue(fixtureData());
    catalogue.master = async () => {
      throw new ApiError(code, {}, { ...headers });
    };
    const accounts = createMemoryAccounts();
    const service = createService({ catalogue, accounts, limiter: createMemoryLimiter(), logger: { log() {} } }, { baseUrl: 'http://x.test' });
    const issued = await issueCustomerKey(accounts, { email: 'a@b.co', tier: 'self_serve_49', environment: 'test' }, new Date());
    const res = await service.fetch(new Request('http://x.test/api/v1/masters/113', { headers: { 'x-api-key': issued.plaintext } }));
    await expectError(res, status, code);
    for (const [name, value] of Object.entries(headers)) expect(res.headers.get(name)).toBe(value);
    // The rate-limit headers of the admitted call are kept on the error.
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  });
});
