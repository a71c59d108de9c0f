/**
 * Dashboard sign-in state: the session cookie (HttpOnly; SameSite=Strict; Path=/; Secure
 * unless BASE_URL is http), the session lookup by token hash, and the Origin check that
 * state-changing dashboard routes add on top of SameSite. Where the cookie is Secure its name
 * carries the `__Host-` prefix (issue 30, 5): a browser then keeps it only as set by this very
 * origin over https, with Path=/ and no Domain, so no sibling subdomain or plain-http answer can
 * plant a session cookie of its own; and only that name is read there.
 */
import type { ResolvedConfig } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import type { Customer, CustomersAndKeys, DashboardState, Ports } from '../ports/index.js';
import { newToken, SESSION_TTL_MS, tokenHash } from './tokens.js';

export const SESSION_COOKIE = 'catalogue_session';

/** Whether BASE_URL is https: the cookie is then Secure and `__Host-` prefixed. */
function secureCookie(config: ResolvedConfig): boolean {
  return !config.baseUrl.toLowerCase().startsWith('http:');
}

/** The session cookie's name under this configuration. */
export function sessionCookieName(config: ResolvedConfig): string {
  return secureCookie(config) ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

export function sessionTokenOf(request: Request, config: ResolvedConfig): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  const wanted = sessionCookieName(config);
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === wanted) return rest.join('=') || null;
  }
  return null;
}

/** The signed-in customer, or 401 `unauthorized`. */
export async function sessionCustomer(
  request: Request,
  ports: Ports<DashboardState & CustomersAndKeys>,
  now: number,
  config: ResolvedConfig,
): Promise<Customer> {
  const token = sessionTokenOf(request, config);
  const customerId = token ? await ports.accounts.findSession(tokenHash(token), new Date(now)) : null;
  const customer = customerId ? await ports.accounts.getCustomer(customerId) : null;
  if (!customer) throw new ApiError('unauthorized');
  return customer;
}

/** State-changing routes: the browser's Origin must be BASE_URL's origin (CSRF). */
export function requireSameOrigin(request: Request, config: ResolvedConfig): void {
  const origin = request.headers.get('origin');
  if (origin !== new URL(config.baseUrl).origin) {
    throw new ApiError('unauthorized', { message: 'state-changing dashboard requests must come from the dashboard (Origin)' });
  }
}

/** Starts a session for the customer; returns the Set-Cookie value. */
export async function startSession(ports: Ports<DashboardState>, config: ResolvedConfig, customerId: string, now: number): Promise<string> {
  const { token, hash } = newToken();
  await ports.accounts.createSession({ hash, customer_id: customerId, created_at: new Date(now), expires_at: new Date(now + SESSION_TTL_MS) });
  return cookie(config, token, SESSION_TTL_MS / 1000);
}

export function clearedSessionCookie(config: ResolvedConfig): string {
  return cookie(config, '', 0);
}

function cookie(config: ResolvedConfig, value: string, maxAgeSeconds: number): string {
  const secure = secureCookie(config) ? '; Secure' : '';
  return `${sessionCookieName(config)}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAgeSeconds}${secure}`;
}
