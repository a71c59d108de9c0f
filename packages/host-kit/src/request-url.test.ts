/**
 * The request URL rule (request-url.ts, routed-request.ts): which Host values are an origin,
 * which targets have a path, and that no Host value ever changes the routed path.
 */
import { ApiError } from '@catalogue/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { originOf, pathOf, type RequestUrlParts, requestUrl } from './request-url.js';
import { routedRequest } from './routed-request.js';

const parts = (over: Partial<RequestUrlParts>): RequestUrlParts => ({
  target: '/api/v1?x=1',
  host: 'catalogue.example',
  scheme: 'http',
  fallbackHost: 'localhost:8080',
  ...over,
});

function refusal(result: string | ApiError | Request): ApiError {
  if (!(result instanceof ApiError)) throw new Error(`expected a refusal, got ${result instanceof Request ? result.url : result}`);
  return result;
}

describe('originOf: a Host is an RFC 3986 authority the URL parser accepts', () => {
  it.each([
    ['catalogue.example', 'http://catalogue.example'],
    ['catalogue.example:8080', 'http://catalogue.example:8080'],
    ['CATALOGUE.example:0080', 'http://catalogue.example'],
    ['127.0.0.1:65535', 'http://127.0.0.1:65535'],
    ['[::1]', 'http://[::1]'],
    ['[2001:db8::7]:443', 'http://[2001:db8::7]:443'],
    ['h:', 'http://h'],
    ['ex%41mple.com', 'http://example.com'],
    ["a!$&'()*+,;=b", "http://a!$&'()*+,;=b"],
  ])('%s → %s', (host, origin) => {
    expect(originOf('http', host)).toBe(origin);
  });

  it.each([
    ['a b', 'a space'],
    ['[::1', 'an unclosed IPv6 literal'],
    ['::1', 'an IPv6 address without brackets'],
    ['[::1]x', 'text after the literal'],
    ['[v1.fe]', 'IPvFuture, which no URL can carry'],
    ['<bad host>', 'characters outside the grammar'],
    ['x/api/v1/usage#', 'a path and a fragment'],
    ['x?y', 'a query'],
    ['user@x', 'userinfo'],
    ['', 'empty'],
    ['x:65536', 'a port over 65535'],
    ['x:8o', 'a port that is not digits'],
    ['x:80:81', 'two ports'],
    ['Ünicode.de', 'non-ASCII (an IRI is not a Host)'],
    ['a\\b', 'a backslash'],
    ['h%2Fx', 'an escape that decodes to a delimiter'],
    ['h%zz', 'a broken escape'],
    ['1.2.3.999', 'a dotted number over 255'],
  ])('%s (%s) is malformed', (host) => {
    expect(originOf('http', host)).toBeNull();
  });
});

describe('pathOf: the path and query of a target', () => {
  it.each([
    ['/api/v1?x=1', '/api/v1?x=1'],
    ['//evil.example/x', '//evil.example/x'],
    ['http://other.example/api/v1?q', '/api/v1?q'],
    ['HTTPS://other.example:81', '/'],
    ['http://h?x=1', '/?x=1'],
    ['http://[::1]:8080/api/v1', '/api/v1'],
    ['/search?q=a\\b', '/search?q=a\\b'],
  ])('%s → %s', (target, path) => {
    expect(pathOf(target)).toBe(path);
  });

  it.each(['*', 'api/v1', 'ftp://h/x', '', '/api\\v1/usage', 'http://h/a\\b?q'])('%s has none', (target) => {
    expect(pathOf(target)).toBeNull();
  });
});

describe('requestUrl', () => {
  it('is the validated origin and the target', () => {
    expect(requestUrl(parts({}), null)).toBe('http://catalogue.example/api/v1?x=1');
    expect(requestUrl(parts({ target: 'http://other.example/api/v1' }), null)).toBe('http://catalogue.example/api/v1');
  });

  it("is on BASE_URL's origin whatever the Host, and a malformed Host is still 400", () => {
    expect(requestUrl(parts({ host: 'internal:9000' }), 'https://api.example.com')).toBe('https://api.example.com/api/v1?x=1');
    expect(refusal(requestUrl(parts({ host: 'a b' }), 'https://api.example.com'))).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('takes the scheme from a well-formed X-Forwarded-Proto where the host honours it', () => {
    expect(requestUrl(parts({ scheme: 'https', forwardedProto: 'HTTP' }), null)).toBe('http://catalogue.example/api/v1?x=1');
    expect(requestUrl(parts({ forwardedProto: 'https, http' }), null)).toBe('https://catalogue.example/api/v1?x=1');
    expect(requestUrl(parts({ scheme: 'https', forwardedProto: null }), null)).toBe('https://catalogue.example/api/v1?x=1');
    for (const bad of ['a b', 'javascript', 'https://x', 'ftp']) {
      expect(refusal(requestUrl(parts({ forwardedProto: bad }), null)).body.message, bad).toMatch(/X-Forwarded-Proto/);
      expect(refusal(requestUrl(parts({ forwardedProto: bad }), 'https://api.example.com')).status).toBe(400);
    }
  });

  it('answers a missing Host from the fallback, or 400 where Host is required (HTTP/1.1)', () => {
    expect(requestUrl(parts({ host: null }), null)).toBe('http://localhost:8080/api/v1?x=1');
    expect(refusal(requestUrl(parts({ host: undefined, hostRequired: true }), null)).body.message).toMatch(/missing Host/);
  });

  it('refuses a target without a path', () => {
    expect(refusal(requestUrl(parts({ target: '*' }), null)).body.message).toMatch(/request target/);
  });

  it('never lets the Host change the routed path: any Host gives 400 or a URL with the target path', () => {
    const hostChar = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=%:/?#[]@ <>\\^|"{}`\t'.split(''), 'Ü', '%2F', '%23', '%3F', '[::1]');
    fc.assert(
      fc.property(fc.string({ unit: hostChar, maxLength: 24 }), fc.constantFrom(null, 'https://api.example.com'), (host, publicOrigin) => {
        const result = requestUrl(parts({ host, target: '/api/v1' }), publicOrigin);
        if (result instanceof ApiError) {
          expect(result.code).toBe('bad_request');
        } else {
          const url = new URL(result);
          expect(url.pathname).toBe('/api/v1');
          expect(url.search + url.hash).toBe('');
        }
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('routedRequest: the URL a runtime built around the Host (Bun, Deno)', () => {
  const runtimeRequest = (url: string, host: string | null, init: RequestInit = {}) => {
    const request = new Request('http://placeholder/', init);
    const headers = new Headers(init.headers);
    if (host !== null) headers.set('host', host);
    // A runtime's request.url need not be a URL the WHATWG parser accepts (Deno's raw concatenation).
    return Object.defineProperties(request, { url: { value: url }, headers: { value: headers } }) as Request;
  };

  it('refuses the Host, not the URL, the runtime built from it', () => {
    // Bun leaves the bare target when it cannot use the Host; Deno pastes the Host in as sent.
    expect(refusal(routedRequest(runtimeRequest('/api/v1', 'a b'), null, 'localhost'))).toMatchObject({ status: 400 });
    expect(refusal(routedRequest(runtimeRequest('http://x/api/v1/usage#/api/v1', 'x/api/v1/usage#'), null, 'localhost')).code).toBe('bad_request');
    expect(refusal(routedRequest(runtimeRequest('http://h:80/x/api/v1', 'h:80/x'), null, 'localhost')).code).toBe('bad_request');
  });

  it("keeps the runtime's own Request when its URL already follows the rule", () => {
    const request = runtimeRequest('http://catalogue.example/api/v1?q=1', 'catalogue.example');
    expect(routedRequest(request, null, 'localhost')).toBe(request);
  });

  it("moves a request onto BASE_URL's origin with its method, headers and body", async () => {
    const request = runtimeRequest('http://internal:9000/api/v1/masters/batch', 'internal:9000', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ids":[1]}',
    });
    const routed = routedRequest(request, 'https://api.example.com', 'localhost') as Request;
    expect(routed.url).toBe('https://api.example.com/api/v1/masters/batch');
    expect(routed.method).toBe('POST');
    expect(routed.headers.get('content-type')).toBe('application/json');
    expect(await routed.text()).toBe('{"ids":[1]}');
  });

  it('uses the fallback authority for a request without Host (HTTP/1.0)', () => {
    expect((routedRequest(runtimeRequest('/api/v1', null), null, 'localhost:8080') as Request).url).toBe('http://localhost:8080/api/v1');
  });
});
