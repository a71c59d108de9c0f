/**
 * One JSON access-log line per request through the Logger port (docs/decisions.md §8, "Access
 * log and metrics"): request id, method, route pattern, status, ms, key prefix — never the key,
 * whatever the request: admitted, refused, malformed, a key in the query string.
 */
import type { LogRecord } from '@catalogue/core';
import { describe, expect, it } from 'vitest';
import { setup } from '../support/service.js';

const access = (logs: LogRecord[]) => logs.filter((r) => r.kind === 'http.access');

describe('access log', () => {
  it('one line per request with the route pattern, status, ms and the key prefix', async () => {
    const t = setup({ config: { corsOrigins: ['https://app.example'] } });
    const key = await t.issueKey();
    const res = await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
    const [line] = access(t.logs);
    expect(access(t.logs)).toHaveLength(1);
    expect(line).toEqual({
      level: 'info',
      kind: 'http.access',
      request_id: res.headers.get('x-request-id'),
      method: 'GET',
      route: '/api/v1/masters/:id',
      status: 200,
      ms: expect.any(Number),
      gate_ms: expect.any(Number),
      key_prefix: key.slice(0, 12),
    });

    await t.fetch('/api/v1/nowhere/113');
    await t.fetch('/api/v1/search', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    await t.fetch('/api/v1/masters/113', { method: 'HEAD', headers: { 'x-api-key': key, 'if-none-match': '*' } });
    expect(access(t.logs).map((r) => [r.method, r.route, r.status, r.key_prefix, typeof r.gate_ms])).toEqual([
      ['GET', '/api/v1/masters/:id', 200, key.slice(0, 12), 'number'],
      ['GET', null, 404, null, 'object'],
      ['OPTIONS', null, 204, null, 'object'],
      ['HEAD', '/api/v1/masters/:id', 304, key.slice(0, 12), 'number'],
    ]);
    // The handler ran inside the request: gate_ms lies within ms.
    for (const line of access(t.logs)) if (line.gate_ms !== null) expect(line.gate_ms as number).toBeLessThanOrEqual(line.ms as number);
  });

  it('never carries a key: refused, revoked, malformed, or sent where it does not belong', async () => {
    const t = setup({ config: { adminToken: 'admin-token-0123456789' } });
    const key = await t.issueKey();
    const sent: string[] = [key, 'ck_live_00000000000000000000000000000000', `${key}x`, 'admin-token-0123456789'];
    await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': key } });
    await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': sent[1] as string } });
    await t.fetch('/api/v1/masters/113', { headers: { 'x-api-key': sent[2] as string } });
    await t.fetch(`/api/v1/search?q=${key}`, { headers: { 'x-api-key': key } });
    await t.fetch(`/api/v1/masters/113?api_key=${key}`, { headers: { 'x-api-key': key } });
    await t.fetch('/metrics', { headers: { authorization: 'Bearer admin-token-0123456789' } });
    await t.fetch('/metrics', { headers: { authorization: `Bearer ${key}` } });
    expect(access(t.logs)).toHaveLength(7);
    const text = JSON.stringify(t.logs);
    for (const secret of sent) expect(text).not.toContain(secret);
    for (const line of access(t.logs)) if (line.key_prefix !== null) expect(line.key_prefix).toHaveLength(12);
  });
});
