/**
 * Lambda events built from a fixture request, in the shapes AWS documents for each source:
 * API Gateway REST (payload 1.0), HTTP API (payload 2.0), Function URL (2.0 on a lambda-url
 * domain), ALB (single- and multi-value headers), and the EventBridge scheduled event.
 */
import type { AlbEvent, ApiGatewayV1Event, ApiGatewayV2Event, HttpResult, ScheduledEvent } from '../../hosts/lambda/src/events.js';
import type { Answer } from './answer.js';
import type { FixtureRequest } from './fixture.js';

export type HttpEventKind = 'apigateway-v1' | 'apigateway-v2' | 'function-url' | 'alb' | 'alb-multi-value';
export const HTTP_EVENT_KINDS: HttpEventKind[] = ['apigateway-v1', 'apigateway-v2', 'function-url', 'alb', 'alb-multi-value'];

const SOURCE_IP = '203.0.113.7';

function split(path: string): { pathname: string; rawQuery: string; pairs: Array<[string, string]> } {
  const at = path.indexOf('?');
  const pathname = at === -1 ? path : path.slice(0, at);
  const rawQuery = at === -1 ? '' : path.slice(at + 1);
  return { pathname, rawQuery, pairs: [...new URLSearchParams(rawQuery)] };
}

/** Binary bodies travel base64-encoded, text as is, the way API Gateway and ALB pass them. */
function bodyOf(body: FixtureRequest['body']): { body: string | null; isBase64Encoded: boolean } {
  if (body === undefined) return { body: null, isBase64Encoded: false };
  if (typeof body === 'string') return { body, isBase64Encoded: false };
  return { body: Buffer.from(body).toString('base64'), isBase64Encoded: true };
}

function lastWins(pairs: Array<[string, string]>): Record<string, string> | null {
  return pairs.length ? Object.fromEntries(pairs) : null;
}

function grouped(pairs: Array<[string, string]>): Record<string, string[]> | null {
  if (!pairs.length) return null;
  const out: Record<string, string[]> = {};
  for (const [name, value] of pairs) {
    out[name] = [...(out[name] ?? []), value];
  }
  return out;
}

export function hasRepeatedQuery(req: FixtureRequest): boolean {
  const names = split(req.path).pairs.map(([n]) => n);
  return new Set(names).size !== names.length;
}

export function apiGatewayV1Event(req: FixtureRequest): ApiGatewayV1Event {
  const { pathname, pairs } = split(req.path);
  const headers = { host: 'abc123.execute-api.us-east-1.amazonaws.com', 'x-forwarded-proto': 'https', ...req.headers };
  return {
    resource: '/{proxy+}',
    path: pathname,
    httpMethod: req.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, [v]])),
    queryStringParameters: lastWins(pairs),
    multiValueQueryStringParameters: grouped(pairs),
    pathParameters: { proxy: pathname.slice(1) },
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      resourcePath: '/{proxy+}',
      httpMethod: req.method,
      path: `/prod${pathname}`,
      stage: 'prod',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      requestTimeEpoch: 1_700_000_000_000,
      identity: { sourceIp: SOURCE_IP, userAgent: 'fixture' },
    },
    ...bodyOf(req.body),
  };
}

export function apiGatewayV2Event(req: FixtureRequest, functionUrl = false): ApiGatewayV2Event {
  const { pathname, rawQuery, pairs } = split(req.path);
  const domainName = functionUrl ? 'abcdefghijklmnop.lambda-url.us-east-1.on.aws' : 'abc123.execute-api.us-east-1.amazonaws.com';
  const { cookie, ...rest } = req.headers ?? {};
  const encoded = bodyOf(req.body);
  const queryStringParameters: Record<string, string> = {};
  // Payload 2.0 joins repeated parameter values with commas.
  for (const [name, values] of Object.entries(grouped(pairs) ?? {})) queryStringParameters[name] = values.join(',');
  return {
    version: '2.0',
    routeKey: functionUrl ? '$default' : 'ANY /{proxy+}',
    rawPath: pathname,
    rawQueryString: rawQuery,
    ...(cookie ? { cookies: cookie.split('; ') } : {}),
    headers: { host: domainName, 'x-forwarded-proto': 'https', 'x-forwarded-for': SOURCE_IP, ...rest },
    ...(pairs.length ? { queryStringParameters } : {}),
    requestContext: {
      accountId: functionUrl ? 'anonymous' : '123456789012',
      apiId: functionUrl ? 'abcdefghijklmnop' : 'abc123',
      domainName,
      domainPrefix: domainName.split('.')[0] as string,
      http: { method: req.method, path: pathname, protocol: 'HTTP/1.1', sourceIp: SOURCE_IP, userAgent: 'fixture' },
      requestId: 'id',
      routeKey: functionUrl ? '$default' : 'ANY /{proxy+}',
      stage: '$default',
      time: '12/Mar/2020:19:03:58 +0000',
      timeEpoch: 1_583_348_638_390,
    },
    ...(encoded.body === null ? {} : { body: encoded.body }),
    isBase64Encoded: encoded.isBase64Encoded,
  };
}

export function albEvent(req: FixtureRequest, multiValue: boolean): AlbEvent {
  const { pathname, rawQuery } = split(req.path);
  // ALB passes the query as sent: names and values still percent-encoded.
  const rawPairs = rawQuery ? rawQuery.split('&').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as [string, string]) : [];
  const headers = {
    host: 'my-alb-123.us-east-1.elb.amazonaws.com',
    'x-forwarded-for': SOURCE_IP,
    'x-forwarded-proto': 'https',
    'x-forwarded-port': '443',
    ...req.headers,
  };
  const encoded = bodyOf(req.body);
  const base = {
    requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/lambda-279XGJDqGZ5rsrHC2Fjr/49e9d65c45c6791a' } },
    httpMethod: req.method,
    path: pathname,
    body: encoded.body ?? '',
    isBase64Encoded: encoded.isBase64Encoded,
  };
  if (multiValue) {
    return {
      ...base,
      multiValueQueryStringParameters: grouped(rawPairs) ?? {},
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, [v]])),
    };
  }
  return { ...base, queryStringParameters: lastWins(rawPairs) ?? {}, headers };
}

export function eventFor(kind: HttpEventKind, req: FixtureRequest): ApiGatewayV1Event | ApiGatewayV2Event | AlbEvent {
  switch (kind) {
    case 'apigateway-v1':
      return apiGatewayV1Event(req);
    case 'apigateway-v2':
      return apiGatewayV2Event(req);
    case 'function-url':
      return apiGatewayV2Event(req, true);
    case 'alb':
      return albEvent(req, false);
    case 'alb-multi-value':
      return albEvent(req, true);
  }
}

export function scheduledEvent(time: string): ScheduledEvent {
  return {
    version: '0',
    id: '53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time,
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/catalogue-jobs'],
    detail: {},
  };
}

/** A Lambda result back into the answer shape the fixture checks (Set-Cookie joined by ", "). */
export function answerOf(result: HttpResult): Answer {
  const headers: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  };
  if ('headers' in result && result.headers) for (const [n, v] of Object.entries(result.headers)) add(n, v);
  if ('multiValueHeaders' in result && result.multiValueHeaders) for (const [n, vs] of Object.entries(result.multiValueHeaders)) for (const v of vs) add(n, v);
  if ('cookies' in result) for (const c of result.cookies) add('set-cookie', c);
  const body = result.isBase64Encoded ? new Uint8Array(Buffer.from(result.body, 'base64')) : new TextEncoder().encode(result.body);
  return { status: result.statusCode, headers, body };
}
