/**
 * Magic-link sign-in. POST /api/dashboard/login always answers 202 (whether the address is
 * a customer's is nobody's business), and the lookup, token and mail all run after the
 * answer so its timing tells nothing either. The link's token is single-use, valid 15
 * minutes, stored hashed; GET /api/dashboard/session trades it for the session cookie.
 */
import * as v from 'valibot';
import { clearedSessionCookie, requireSameOrigin, sessionTokenOf, startSession } from '../../billing/dashboard-session.js';
import { readFormOrJson } from '../../billing/form-body.js';
import { loginLinkMail } from '../../billing/mail-templates.js';
import { LOGIN_TOKEN_TTL_MS, newToken, tokenHash } from '../../billing/tokens.js';
import { ApiError } from '../../http/api-error.js';
import { html, json } from '../../http/json.js';
import { route } from '../../http/route.js';
import type { Ports } from '../../ports/index.js';
import { detailsOf } from '../../validation/issues.js';
import { PAGE_HEADERS, page } from '../../web/page-layout.js';

export const LoginRequestSchema = v.object({ email: v.pipe(v.string('must be a string'), v.trim(), v.email('must be an e-mail address'), v.maxLength(320)) });

async function sendLoginLinks(ports: Ports, baseUrl: string, email: string, now: number): Promise<void> {
  const customers = await ports.accounts.findCustomersByEmail(email);
  for (const customer of customers) {
    if (customer.status === 'canceled') continue;
    const { token, hash } = newToken();
    await ports.accounts.createLoginToken({ hash, customer_id: customer.id, expires_at: new Date(now + LOGIN_TOKEN_TTL_MS) });
    if (!ports.mailer) {
      ports.logger.log({ level: 'warn', kind: 'dashboard.login_unsent', customer_id: customer.id, reason: 'no mail transport' });
      continue;
    }
    await ports.mailer.send(loginLinkMail(customer.email, `${baseUrl}/api/dashboard/session?token=${encodeURIComponent(token)}`));
    ports.logger.log({ level: 'info', kind: 'dashboard.login_link_sent', customer_id: customer.id });
  }
}

export const dashboardLoginRoute = () =>
  route({
    method: 'POST',
    path: '/api/dashboard/login',
    access: 'public',
    summary: 'E-mail a single-use sign-in link (always 202)',
    tags: ['dashboard'],
    body: { schema: LoginRequestSchema, description: 'The e-mail the subscription was bought with.', maxBytes: 2048 },
    responses: { 202: { description: 'If the address belongs to a customer, a link valid 15 minutes is on its way.' } },
    errors: ['invalid_body', 'unsupported_media_type', 'payload_too_large'],
    async handler({ request, ports, config, now, waitUntil }) {
      const parsed = v.safeParse(LoginRequestSchema, await readFormOrJson(request, 2048));
      if (!parsed.success) throw new ApiError(400, 'invalid_body', { details: detailsOf(parsed.issues) });
      waitUntil(sendLoginLinks(ports, config.baseUrl, parsed.output.email, now));
      return json({ accepted: true }, 202, { 'cache-control': 'no-store' });
    },
  });

export const dashboardSessionRoute = () =>
  route({
    method: 'GET',
    path: '/api/dashboard/session',
    access: 'open',
    query: { token: { schema: v.optional(v.pipe(v.string(), v.maxLength(200))) } },
    summary: 'Sign in with the e-mailed link: sets the session cookie and redirects to /dashboard',
    tags: ['dashboard'],
    responses: {
      303: { description: 'Signed in; to /dashboard.', headers: ['Location', 'Set-Cookie'] },
      400: { description: 'HTML page: the link is used, expired or wrong.' },
    },
    async handler({ query, ports, config, now }) {
      const customerId = query.token ? await ports.accounts.consumeLoginToken(tokenHash(query.token), new Date(now)) : null;
      if (!customerId) {
        return html(
          page(
            'Sign-in link expired',
            '<h1>This sign-in link does not work any more</h1><p>Links work once and for 15 minutes. <a href="/dashboard">Ask for a new one</a>.</p>',
          ),
          400,
          PAGE_HEADERS,
        );
      }
      const cookie = await startSession(ports, config, customerId, now);
      ports.logger.log({ level: 'info', kind: 'dashboard.signed_in', customer_id: customerId });
      return new Response(null, { status: 303, headers: { location: '/dashboard', 'set-cookie': cookie, 'cache-control': 'no-store' } });
    },
  });

export const dashboardLogoutRoute = () =>
  route({
    method: 'POST',
    path: '/api/dashboard/logout',
    access: 'open',
    summary: 'Sign out of the dashboard',
    tags: ['dashboard'],
    responses: { 204: { description: 'Signed out.' } },
    errors: ['unauthorized'],
    async handler({ request, ports, config }) {
      requireSameOrigin(request, config);
      const token = sessionTokenOf(request);
      if (token) await ports.accounts.deleteSession(tokenHash(token));
      return new Response(null, { status: 204, headers: { 'set-cookie': clearedSessionCookie(config), 'cache-control': 'no-store' } });
    },
  });
