/**
 * Dashboard sign-in state (dashboard-session.ts): the cookie's name and attributes under an
 * http or https BASE_URL, reading it back, and the Origin check of state-changing routes.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import type { Accounts, Customer, DashboardSession, Ports } from '../ports/index.js';
import {
  clearedSessionCookie,
  requireSameOrigin,
  SESSION_COOKIE,
  sessionCookieName,
  sessionCustomer,
  sessionTokenOf,
  startSession,
} from './dashboard-session.js';
import { SESSION_TTL_MS, tokenHash } from './tokens.js';

const HTTPS = resolveConfig({ baseUrl: 'https://api.example/' });
const HTTP = resolveConfig({ baseUrl: 'http://localhost:8080' });
const withCookie = (cookie?: string, origin?: string) =>
  new Request('https://api.example/api/dashboard/keys', { headers: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) } });

function code(run: () => unknown): [number, string] | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return [(error as ApiError).status, (error as ApiError).code];
  }
}

describe('the session cookie', () => {
  it('is __Host- prefixed and Secure under https, plain under http', () => {
    expect(SESSION_COOKIE).toBe('catalogue_session');
    expect(sessionCookieName(HTTPS)).toBe('__Host-catalogue_session');
    expect(sessionCookieName(HTTP)).toBe('catalogue_session');
    expect(sessionCookieName(resolveConfig({ baseUrl: 'HTTP://LOCALHOST:8080' }))).toBe('catalogue_session');
    expect(clearedSessionCookie(HTTPS)).toBe('__Host-catalogue_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0; Secure');
    expect(clearedSessionCookie(HTTP)).toBe('catalogue_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0');
  });

  it('is read by its name under this configuration only', () => {
    expect(sessionTokenOf(withCookie('a=1; __Host-catalogue_session=tok=en; b=2'), HTTPS)).toBe('tok=en');
    expect(sessionTokenOf(withCookie('catalogue_session=plain'), HTTPS)).toBeNull();
    expect(sessionTokenOf(withCookie('__Host-catalogue_session=x'), HTTP)).toBeNull();
    expect(sessionTokenOf(withCookie('x=1;catalogue_session=tok'), HTTP)).toBe('tok');
    expect(sessionTokenOf(withCookie('catalogue_session='), HTTP)).toBeNull();
    expect(sessionTokenOf(withCookie('catalogue_sessionX=tok'), HTTP)).toBeNull();
    expect(sessionTokenOf(withCookie(), HTTP)).toBeNull();
  });
});

describe('sessions', () => {
  const NOW = Date.UTC(2026, 2, 10, 12);
  const customer = { id: 'cust_1' } as Customer;

  function portsWith() {
    const sessions: DashboardSession[] = [];
    const lookups: Array<[string, Date]> = [];
    const ports = {
      accounts: {
        createSession: async (session: DashboardSession) => {
          sessions.push(session);
        },
        findSession: async (hash: string, now: Date) => {
          lookups.push([hash, now]);
          return sessions.find((s) => s.hash === hash && s.expires_at > now)?.customer_id ?? null;
        },
        getCustomer: async (id: string) => (id === customer.id ? customer : null),
      },
    } as unknown as Ports<Accounts>;
    return { ports, sessions, lookups };
  }

  it('startSession stores only the token’s hash for 7 days and sets the cookie with the token', async () => {
    const { ports, sessions } = portsWith();
    const cookie = await startSession(ports, HTTPS, 'cust_1', NOW);
    const match = /^__Host-catalogue_session=([A-Za-z0-9_-]{43}); HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800; Secure$/.exec(cookie);
    expect(match).not.toBeNull();
    const token = match?.[1] as string;
    expect(sessions).toEqual([{ hash: tokenHash(token), customer_id: 'cust_1', created_at: new Date(NOW), expires_at: new Date(NOW + SESSION_TTL_MS) }]);
    expect(await startSession(ports, HTTP, 'cust_1', NOW)).toMatch(/^catalogue_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=604800$/);
  });

  it('sessionCustomer: the signed-in customer, else 401 unauthorized', async () => {
    const { ports, lookups } = portsWith();
    const cookie = await startSession(ports, HTTPS, 'cust_1', NOW);
    const pair = cookie.split(';')[0] as string;
    expect(await sessionCustomer(withCookie(pair), ports, NOW + 1000, HTTPS)).toBe(customer);
    expect(lookups.at(-1)?.[1]).toEqual(new Date(NOW + 1000));
    const refused = async (request: Request, now = NOW) => {
      const error = await sessionCustomer(request, ports, now, HTTPS).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      return [(error as ApiError).status, (error as ApiError).code, (error as ApiError).publicMessage];
    };
    const unauthorized = [401, 'unauthorized', 'sign in to the dashboard first'];
    expect(await refused(withCookie())).toEqual(unauthorized);
    expect(await refused(withCookie('__Host-catalogue_session=forged'))).toEqual(unauthorized);
    expect(await refused(withCookie(pair), NOW + SESSION_TTL_MS)).toEqual(unauthorized);
    await startSession(ports, HTTPS, 'cust_gone', NOW);
    const gone = (await startSession(ports, HTTPS, 'cust_gone', NOW)).split(';')[0] as string;
    expect(await refused(withCookie(gone))).toEqual(unauthorized);
  });
});

describe('requireSameOrigin', () => {
  it('passes only BASE_URL’s origin', () => {
    expect(code(() => requireSameOrigin(withCookie(undefined, 'https://api.example'), HTTPS))).toBeNull();
    expect(code(() => requireSameOrigin(withCookie(undefined, 'http://localhost:8080'), HTTP))).toBeNull();
    for (const origin of [undefined, 'https://evil.example', 'http://api.example', 'https://api.example:8443', 'null'])
      expect(
        code(() => requireSameOrigin(withCookie(undefined, origin), HTTPS)),
        String(origin),
      ).toEqual([401, 'unauthorized']);
  });
});
