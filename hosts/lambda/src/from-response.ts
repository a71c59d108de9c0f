/**
 * The service's Response → the result each event kind expects. Set-Cookie cannot be folded
 * into one comma-joined header, so each kind gets it its own way: REST v1 and multi-value ALB
 * in multiValueHeaders, HTTP API / Function URL in `cookies`, single-value ALB one header per
 * cookie under differently cased names (the load balancer passes header names through as given).
 */
import type { AlbResult, ApiGatewayV1Result, ApiGatewayV2Result } from './events.js';

const TEXTUAL = /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|x-www-form-urlencoded))/i;

interface Parts {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: string;
  isBase64Encoded: boolean;
}

async function partsOf(response: Response): Promise<Parts> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  // Text goes as UTF-8; anything else (or a body with no type) base64, so no byte is mangled.
  // A compressed body is bytes whatever its type says (docs/decisions.md §6, "Compression").
  const textual = bytes.byteLength === 0 || (TEXTUAL.test(type) && !response.headers.has('content-encoding'));
  return {
    statusCode: response.status,
    headers,
    cookies,
    body: textual ? new TextDecoder().decode(bytes) : Buffer.from(bytes).toString('base64'),
    isBase64Encoded: !textual,
  };
}

export async function toApiGatewayV1(response: Response): Promise<ApiGatewayV1Result> {
  const { cookies, ...parts } = await partsOf(response);
  return { ...parts, multiValueHeaders: cookies.length ? { 'set-cookie': cookies } : {} };
}

export async function toApiGatewayV2(response: Response): Promise<ApiGatewayV2Result> {
  return partsOf(response);
}

export async function toAlb(response: Response, multiValue: boolean): Promise<AlbResult> {
  const { cookies, headers, ...parts } = await partsOf(response);
  const statusDescription = `${parts.statusCode} ${response.statusText || ''}`.trim();
  if (multiValue) {
    const multiValueHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(headers)) multiValueHeaders[name] = [value];
    if (cookies.length) multiValueHeaders['set-cookie'] = cookies;
    return { ...parts, statusDescription, multiValueHeaders };
  }
  const single = { ...headers };
  cookies.forEach((cookie, i) => {
    single[caseVariant('set-cookie', i)] = cookie;
  });
  return { ...parts, statusDescription, headers: single };
}

/** The i-th distinct capitalisation of a header name (i = 0 is the name itself). */
export function caseVariant(name: string, i: number): string {
  let out = '';
  let bit = 0;
  for (const ch of name) {
    const letter = ch.toLowerCase() !== ch.toUpperCase();
    out += letter && (i >> bit++) & 1 ? ch.toUpperCase() : ch;
  }
  return out;
}
