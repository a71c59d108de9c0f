/**
 * The one rule every host builds a request's URL by (docs/hosts.md, "The request URL"): the
 * path and query the runtime received, after a validated origin — BASE_URL's when it is set,
 * else the request's scheme and Host. The path never comes from a header, so no Host value can
 * change the routed path and slip past a path-based rule in front of the service (docs/decisions.md §9).
 *
 * A Host that is not an RFC 3986 authority is refused 400 whether or not BASE_URL is set:
 * RFC 9112 §3.2 requires it of every server, and a client then gets the same answer from every
 * deployment of the service.
 */
import { ApiError } from '@catalogue/core';

export interface RequestUrlParts {
  /**
   * The request target as the runtime received it: origin-form `/path?query`, or an absolute
   * URL (an absolute-form target, or the URL a runtime built around the target), of which only
   * the path and query are kept.
   */
  target: string;
  /** The Host header as received; null or undefined when the request carries none. */
  host: string | null | undefined;
  /** The scheme the runtime received the request on. */
  scheme: 'http' | 'https';
  /** X-Forwarded-Proto, on the hosts that take the scheme from it (Lambda); omitted elsewhere. */
  forwardedProto?: string | null;
  /** An HTTP/1.1 request must carry Host (RFC 9112 §3.2); HTTP/1.0 may omit it. */
  hostRequired?: boolean;
  /** The authority of a request without Host: the host's own address (trusted, not validated). */
  fallbackHost: string;
}

/**
 * RFC 3986 §3.2.2–3.2.3 without userinfo (RFC 9110 §7.2: Host = uri-host [ ":" port ]): an
 * IP-literal in brackets (its IPv6 syntax is left to the URL parser below), or a non-empty
 * reg-name / IPv4address of unreserved characters, sub-delims and percent-escapes; then an
 * optional port of digits.
 */
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::(\d*))?$/;
const MAX_PORT = 65_535;

function badRequest(message: string): ApiError {
  return new ApiError('bad_request', { message });
}

/**
 * `scheme://host` as an origin, or null when the host is malformed: outside the grammar, a port
 * over 65535, or a host the WHATWG URL parser refuses (an invalid IPv6 literal, a dotted number
 * over 255, an escape that decodes to a delimiter) — the services' `new URL(request.url)` must
 * never throw on it.
 */
export function originOf(scheme: 'http' | 'https', host: string): string | null {
  const key = `${scheme}://${host}`;
  const known = KNOWN_ORIGINS.get(key);
  if (known !== undefined) return known;
  const origin = validatedOrigin(scheme, host);
  // A client sends the same Host on every request: remember the answer (bounded, since the
  // Host is the client's to choose).
  if (KNOWN_ORIGINS.size >= MAX_KNOWN_ORIGINS) KNOWN_ORIGINS.clear();
  KNOWN_ORIGINS.set(key, origin);
  return origin;
}

/** Hosts validated already, to their origin or null: the grammar and `new URL` cost more than the rest of the rule. */
const KNOWN_ORIGINS = new Map<string, string | null>();
const MAX_KNOWN_ORIGINS = 256;

function validatedOrigin(scheme: 'http' | 'https', host: string): string | null {
  const match = AUTHORITY.exec(host);
  if (!match) return null;
  const port = match[1];
  if (port !== undefined && port !== '' && Number(port) > MAX_PORT) return null;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}

/** The scheme X-Forwarded-Proto names (its first entry), undefined when it names none, null when malformed. */
function forwardedScheme(value: string | null | undefined): 'http' | 'https' | null | undefined {
  const first = value?.split(',')[0]?.trim().toLowerCase();
  if (!first) return undefined;
  return first === 'http' || first === 'https' ? first : null;
}

/**
 * The path and query of a target: origin-form as it is; for an absolute URL, from the first
 * `/`, `?` or `#` after its authority (the authority is the runtime's or the client's
 * absolute-form, never a header; only the origin rule decides the origin). Null for anything
 * else (`*`, a bare name), and for a backslash in the path: the URL parser reads it as `/`, so
 * the service would route a path other than the one a proxy in front of it saw (as
 * @hono/node-server refuses it on Node).
 */
export function pathOf(target: string): string | null {
  const path = target.charCodeAt(0) === 47 /* / */ ? target : pathOfAbsolute(target);
  if (path === null) return null;
  const backslash = path.indexOf('\\');
  if (backslash === -1) return path;
  const query = path.search(/[?#]/);
  return query !== -1 && query < backslash ? path : null;
}

function pathOfAbsolute(target: string): string | null {
  const scheme = /^https?:\/\//i.exec(target);
  if (!scheme) return null;
  const rest = target.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  if (end === -1) return '/';
  return rest[end] === '/' ? rest.slice(end) : `/${rest.slice(end)}`;
}

/**
 * The request's URL, or the 400 `bad_request` to answer instead: for a malformed Host or
 * X-Forwarded-Proto, a missing Host where it is required, or a target with no path.
 * `publicOrigin` is BASE_URL's origin when BASE_URL is set (HostEnv.publicOrigin).
 */
export function requestUrl(parts: RequestUrlParts, publicOrigin: string | null): string | ApiError {
  const proto = parts.forwardedProto === undefined ? undefined : forwardedScheme(parts.forwardedProto);
  if (proto === null) return badRequest('malformed X-Forwarded-Proto header: http or https');
  const scheme = proto ?? parts.scheme;
  let origin: string | null;
  if (parts.host === null || parts.host === undefined) {
    if (parts.hostRequired) return badRequest('missing Host header');
    // The host's own address: trusted, not a header.
    origin = `${scheme}://${parts.fallbackHost}`;
  } else {
    origin = originOf(scheme, parts.host);
    if (origin === null) return badRequest('malformed Host header: host[:port] as RFC 3986 defines them');
  }
  const path = pathOf(parts.target);
  if (path === null) return badRequest('malformed request target: an absolute path, without a backslash before the query');
  return `${publicOrigin ?? origin}${path}`;
}
