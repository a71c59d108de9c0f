/**
 * A Lambda HTTP event → the WHATWG Request the service reads, plus the client IP. The URL
 * follows host-kit's rule (request-url.ts): the event's path and query after a validated origin
 * (BASE_URL's when set, else X-Forwarded-Proto and Host); a malformed Host or
 * X-Forwarded-Proto is the 400 to answer instead, never a thrown "Failed to parse URL".
 */
import type { ApiError } from '@catalogue/core';
import { clientIpFrom, requestUrl, type TrustProxy } from '@catalogue/host-kit';
import type { AlbEvent, ApiGatewayV1Event, ApiGatewayV2Event, HeaderMap, MultiValueMap } from './events.js';

export interface EventOptions {
  trustProxy: TrustProxy;
  /** BASE_URL's origin when it is set (HostEnv.publicOrigin). */
  publicOrigin: string | null;
}

export interface IncomingRequest {
  request: Request;
  clientIp: string;
  /** Body size in bytes (the event carries it whole). */
  bodyBytes: number;
}

const NO_BODY = new Set(['GET', 'HEAD']);

function bodyOf(body: string | null | undefined, isBase64Encoded: boolean): Uint8Array<ArrayBuffer> | null {
  if (body === null || body === undefined || body === '') return null;
  return isBase64Encoded ? Uint8Array.from(Buffer.from(body, 'base64')) : new TextEncoder().encode(body);
}

/** Multi-value maps win where present: they carry every repeated header. */
function headersOf(single: HeaderMap | null | undefined, multi: MultiValueMap | null | undefined): Headers {
  const headers = new Headers();
  if (multi) {
    for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) headers.append(name, value);
  } else if (single) {
    for (const [name, value] of Object.entries(single)) if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** Without Host, the event's own domain; the scheme is https unless X-Forwarded-Proto says otherwise. */
function urlOf(headers: Headers, fallbackHost: string, path: string, query: string, publicOrigin: string | null): string | ApiError {
  const target = `${path}${query ? `?${query}` : ''}`;
  return requestUrl({ target, host: headers.get('host'), scheme: 'https', forwardedProto: headers.get('x-forwarded-proto'), fallbackHost }, publicOrigin);
}

function requestOf(method: string, url: string, headers: Headers, bytes: Uint8Array<ArrayBuffer> | null): Request {
  const body = bytes && !NO_BODY.has(method) ? bytes : null;
  return new Request(url, { method, headers, body });
}

/** Decoded parameter values (API Gateway) → a query string. */
function encodeQuery(single: HeaderMap | null | undefined, multi: MultiValueMap | null | undefined): string {
  const params = new URLSearchParams();
  if (multi) {
    for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) params.append(name, value);
  } else if (single) {
    for (const [name, value] of Object.entries(single)) if (value !== undefined) params.append(name, value);
  }
  return params.toString();
}

/** ALB passes names and values as the client sent them, still percent-encoded. */
function rawQuery(single: HeaderMap | undefined, multi: MultiValueMap | undefined): string {
  const pairs: string[] = [];
  if (multi) {
    for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) pairs.push(`${name}=${value}`);
  } else if (single) {
    for (const [name, value] of Object.entries(single)) if (value !== undefined) pairs.push(`${name}=${value}`);
  }
  return pairs.join('&');
}

export function fromApiGatewayV1(event: ApiGatewayV1Event, options: EventOptions): IncomingRequest | ApiError {
  const headers = headersOf(event.headers, event.multiValueHeaders);
  const query = encodeQuery(event.queryStringParameters, event.multiValueQueryStringParameters);
  const url = urlOf(headers, 'apigateway.local', event.path, query, options.publicOrigin);
  if (typeof url !== 'string') return url;
  const bytes = bodyOf(event.body, event.isBase64Encoded);
  return {
    request: requestOf(event.httpMethod, url, headers, bytes),
    clientIp: clientIpFrom(headers.get('x-forwarded-for'), options.trustProxy, event.requestContext.identity?.sourceIp),
    bodyBytes: bytes?.byteLength ?? 0,
  };
}

/** HTTP API (v2) and Function URLs: cookies arrive apart from the headers. */
export function fromApiGatewayV2(event: ApiGatewayV2Event, options: EventOptions): IncomingRequest | ApiError {
  const headers = headersOf(event.headers, null);
  if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  const url = urlOf(headers, event.requestContext.domainName, event.rawPath, event.rawQueryString, options.publicOrigin);
  if (typeof url !== 'string') return url;
  const bytes = bodyOf(event.body, event.isBase64Encoded);
  return {
    request: requestOf(event.requestContext.http.method, url, headers, bytes),
    clientIp: clientIpFrom(headers.get('x-forwarded-for'), options.trustProxy, event.requestContext.http.sourceIp),
    bodyBytes: bytes?.byteLength ?? 0,
  };
}

export function fromAlb(event: AlbEvent, options: EventOptions): IncomingRequest | ApiError {
  const headers = headersOf(event.headers, event.multiValueHeaders);
  const query = rawQuery(event.queryStringParameters, event.multiValueQueryStringParameters);
  const url = urlOf(headers, 'alb.local', event.path, query, options.publicOrigin);
  if (typeof url !== 'string') return url;
  const bytes = bodyOf(event.body, event.isBase64Encoded);
  // The load balancer appends the address it saw to X-Forwarded-For: that last hop is the peer,
  // and the hops before it are what TRUST_PROXY may believe (proxies in front of the balancer).
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  const peer = hops.pop();
  return {
    request: requestOf(event.httpMethod, url, headers, bytes),
    clientIp: clientIpFrom(hops.join(', '), options.trustProxy, peer),
    bodyBytes: bytes?.byteLength ?? 0,
  };
}
