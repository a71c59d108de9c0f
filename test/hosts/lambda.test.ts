/**
 * The Lambda host: the shared fixture through every HTTP event kind, each answer checked
 * against the fixture and compared with the fetch handler's own answer to the same request;
 * Set-Cookie and binary bodies per event kind; the scheduled event runs runJobs.
 */
import type { Service } from '@catalogue/core';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpResult } from '../../hosts/lambda/src/events.js';
import { caseVariant } from '../../hosts/lambda/src/from-response.js';
import { createLambdaHandler, type LambdaHandler } from '../../hosts/lambda/src/serve.js';
import { type Answer, checkAnswer, jsonOf } from './answer.js';
import { errorHeaders, FIXTURE, FIXTURE_ADMIN_TOKEN, type FixtureContext, type FixtureRequest } from './fixture.js';
import { answerOf, eventFor, HTTP_EVENT_KINDS, hasRepeatedQuery, scheduledEvent } from './lambda-events.js';
import { fixtureContext } from './setup.js';

/** Headers whose values legitimately differ between two answers to the same request. */
const VARYING = new Set(['x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'date', 'connection', 'content-length']);

function comparable(answer: Answer) {
  const text = new TextDecoder().decode(answer.body);
  let body: unknown = text;
  try {
    const parsed = jsonOf(answer) as Record<string, unknown>;
    const { request_id: _ignored, ...rest } = parsed;
    body = rest;
  } catch {
    // not JSON: compare the text
  }
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([n, v]) => [n, VARYING.has(n) ? '(varies)' : v]));
  return { status: answer.status, headers, body };
}

async function direct(service: Service, req: FixtureRequest): Promise<Answer> {
  const response = await service.fetch(
    new Request(`https://direct.test${req.path}`, { method: req.method, headers: req.headers, body: (req.body ?? null) as BodyInit | null }),
    { clientIp: '203.0.113.7' },
  );
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
}

describe('the Lambda host answers the shared fixture through every event kind', () => {
  for (const kind of HTTP_EVENT_KINDS) {
    describe(kind, () => {
      // A service per event kind: the fixture's wrong admin token, sent through every kind from
      // one source IP within a minute, would otherwise reach the admin throttle (10 a minute).
      let service: Service;
      let handler: LambdaHandler;
      let ctx: FixtureContext;

      beforeAll(async () => {
        const hosted = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: FIXTURE_ADMIN_TOKEN, LOG_LEVEL: 'error' });
        service = hosted.service;
        handler = createLambdaHandler(service);
        ctx = await fixtureContext(async (req) => answerOf((await handler(eventFor('apigateway-v2', req))) as HttpResult), true);
      }, 60_000);

      for (const c of FIXTURE) {
        it(c.name, async () => {
          const req = c.request(ctx);
          // Single-value ALB keeps only the last value of a repeated parameter (AWS documents it).
          if (kind === 'alb' && hasRepeatedQuery(req)) return;
          for (const prime of c.prime?.(ctx) ?? []) await handler(eventFor(kind, prime));
          const viaLambda = answerOf((await handler(eventFor(kind, req))) as HttpResult);
          checkAnswer(viaLambda, c.expect(ctx), `${kind}: ${c.name}`);
          if (!c.hostLevel) expect(comparable(viaLambda)).toEqual(comparable(await direct(service, req)));
        });
      }
    });
  }
});

describe('the Lambda mapping of cookies, binary bodies and schedules', () => {
  const binary = new Uint8Array([0, 1, 2, 250, 255]);
  const seen: Request[] = [];
  const jobRuns: Date[] = [];
  const stub = {
    async fetch(request: Request) {
      seen.push(request);
      const echoed = request.body ? new Uint8Array(await request.arrayBuffer()) : binary;
      const headers = new Headers({ 'content-type': 'application/octet-stream' });
      headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
      headers.append('set-cookie', 'b=2; Path=/; Secure');
      return new Response(echoed, { status: 200, headers });
    },
    async runJobs(now?: Date) {
      jobRuns.push(now ?? new Date());
    },
  } as unknown as Service;
  const handler = createLambdaHandler(stub);
  const req: FixtureRequest = {
    method: 'POST',
    path: '/echo?x=1&x=2',
    headers: { cookie: 'session=abc; theme=dark', 'content-type': 'application/octet-stream' },
    body: binary,
  };

  it('REST v1 puts every Set-Cookie in multiValueHeaders and base64-encodes binary bodies both ways', async () => {
    const result = (await handler(eventFor('apigateway-v1', req))) as HttpResult & { multiValueHeaders: Record<string, string[]> };
    expect(result.multiValueHeaders['set-cookie']).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/; Secure']);
    expect(result.isBase64Encoded).toBe(true);
    expect(new Uint8Array(Buffer.from(result.body, 'base64'))).toEqual(binary);
    const request = seen.at(-1) as Request;
    expect(new URL(request.url).searchParams.getAll('x')).toEqual(['1', '2']);
    expect(request.headers.get('cookie')).toBe('session=abc; theme=dark');
  });

  it('HTTP API v2 and Function URLs answer cookies in `cookies` and take them from `cookies`', async () => {
    for (const kind of ['apigateway-v2', 'function-url'] as const) {
      const result = (await handler(eventFor(kind, req))) as HttpResult & { cookies: string[]; headers: Record<string, string> };
      expect(result.cookies).toEqual(['a=1; Path=/; HttpOnly', 'b=2; Path=/; Secure']);
      expect(result.headers['set-cookie']).toBeUndefined();
      expect(new Uint8Array(Buffer.from(result.body, 'base64'))).toEqual(binary);
      expect((seen.at(-1) as Request).headers.get('cookie')).toBe('session=abc; theme=dark');
    }
  });

  it('ALB answers in the header mode of the request; single-value mode keeps each cookie under its own casing', async () => {
    const multi = (await handler(eventFor('alb-multi-value', req))) as HttpResult & { multiValueHeaders: Record<string, string[]>; statusDescription: string };
    expect(multi.multiValueHeaders['set-cookie']).toHaveLength(2);
    expect(multi.statusDescription).toMatch(/^200/);
    const single = (await handler(eventFor('alb', req))) as HttpResult & { headers: Record<string, string> };
    expect(single.headers[caseVariant('set-cookie', 0)]).toBe('a=1; Path=/; HttpOnly');
    expect(single.headers[caseVariant('set-cookie', 1)]).toBe('b=2; Path=/; Secure');
    expect(caseVariant('set-cookie', 1)).not.toBe('set-cookie');
  });

  it("builds every event's URL from its path on BASE_URL's origin, whatever the Host; a malformed Host is still 400", async () => {
    const behindBaseUrl = createLambdaHandler(stub, { publicOrigin: 'https://api.example.com' });
    for (const kind of HTTP_EVENT_KINDS) {
      await behindBaseUrl(eventFor(kind, { method: 'GET', path: '/api/v1?x=1', headers: { host: 'internal.example:9000', 'x-forwarded-proto': 'http' } }));
      expect((seen.at(-1) as Request).url, kind).toBe('https://api.example.com/api/v1?x=1');
      const refused = answerOf((await behindBaseUrl(eventFor(kind, { method: 'GET', path: '/api/v1', headers: { host: 'x/api/v1/usage#' } }))) as HttpResult);
      checkAnswer(refused, { status: 400, json: { error: 'bad_request' }, headers: errorHeaders }, kind);
    }
  });

  it('a text answer stays text', async () => {
    const textStub = { fetch: async () => new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }) } as unknown as Service;
    const result = (await createLambdaHandler(textStub)(eventFor('apigateway-v1', { method: 'GET', path: '/' }))) as HttpResult;
    expect(result).toMatchObject({ isBase64Encoded: false, body: '{"ok":true}' });
  });

  it('an EventBridge scheduled event runs runJobs at the event time', async () => {
    await expect(handler(scheduledEvent('2026-03-01T12:00:00Z'))).resolves.toEqual({ ok: true, ran: 'runJobs' });
    expect(jobRuns.at(-1)?.toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it('refuses an event it does not know', async () => {
    await expect(handler({ foo: 'bar' } as never)).rejects.toThrow(/unrecognised Lambda event/);
  });
});
