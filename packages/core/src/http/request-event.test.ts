/**
 * The request's event (request-event.ts): the one writer of the answer's headers, and the answer
 * it builds from a handler's Reply or Response, or from a refusal.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { Reply } from './json.js';
import { RequestEvent, type ServiceScope } from './request-event.js';

const kept: Array<Promise<unknown>> = [];
const scope = { keep: (_host: unknown, promise: Promise<unknown>) => kept.push(promise) } as unknown as ServiceScope;
const eventOf = (init: RequestInit = {}, url = 'http://x.test/api/v2/search?q=a') =>
  new RequestEvent(new Request(url, init), 'req_1', { clientIp: '192.0.2.1' }, scope, { 'x-request-id': 'req_1' });

describe('RequestEvent', () => {
  it('parses the URL once and says what the request came in on', () => {
    const event = eventOf();
    expect(event.url.searchParams.get('q')).toBe('a');
    expect(event.base).toBe('/api/v2');
    expect(eventOf({}, 'http://x.test/api/v1/masters/1').base).toBe('/api/v1');
    expect(event.clientIp).toBe('192.0.2.1');
    expect(new RequestEvent(new Request('http://x.test/'), 'r', undefined, scope, {}).clientIp).toBe('unknown');
    expect(event.keyPrefix).toBeNull();
  });

  it('writes the answer’s headers; Vary gathers each field name once', () => {
    const event = eventOf();
    event.header('etag', '"a"');
    event.headersFrom({ deprecation: 'true', sunset: 'Tue, 01 Sep 2026 00:00:00 GMT' });
    event.vary('origin');
    event.vary('accept-encoding');
    event.vary('origin');
    expect(event.responseHeaders).toEqual({
      'x-request-id': 'req_1',
      etag: '"a"',
      deprecation: 'true',
      sunset: 'Tue, 01 Sep 2026 00:00:00 GMT',
      vary: 'origin, accept-encoding',
    });
  });

  it('a Reply: one Response over the event’s headers, the Reply’s own beneath them and unchanged', async () => {
    const event = eventOf();
    event.header('cache-control', 'no-store');
    const own = { 'content-type': 'application/json', 'cache-control': 'private, max-age=60' };
    const response = event.respond(new Reply(201, '{"ok":true}', own));
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(own).toEqual({ 'content-type': 'application/json', 'cache-control': 'private, max-age=60' });
    expect(await response.text()).toBe('{"ok":true}');
  });

  it('a Response a handler built gets the event’s headers; HEAD answers carry no body', async () => {
    const event = eventOf();
    const redirect = event.respond(new Response(null, { status: 308, headers: { location: '/api/v2/search' } }));
    expect([redirect.status, redirect.headers.get('location'), redirect.headers.get('x-request-id')]).toEqual([308, '/api/v2/search', 'req_1']);
    const head = eventOf({ method: 'HEAD' }).respond(new Reply(200, '{"ok":true}', { 'content-type': 'application/json' }));
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'application/json', '']);
  });

  it('a refusal: the spec’s body with the event’s headers; HEAD gets the status and headers alone', async () => {
    const event = eventOf();
    event.header('x-ratelimit-limit', '60');
    const refused = event.refuse(new ApiError('pool_exhausted'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
    expect(await refused.json()).toMatchObject({ error: 'pool_exhausted', request_id: 'req_1' });
    const head = eventOf({ method: 'HEAD' }).refuse(new ApiError('route_not_found'));
    expect([head.status, head.headers.get('cache-control'), await head.text()]).toEqual([404, 'no-store', '']);
  });

  it('work after the answer goes to the host through the service', () => {
    const event = eventOf();
    const { waitUntil } = event;
    const work = Promise.resolve();
    waitUntil(work);
    expect(kept).toContain(work);
  });
});
