/**
 * GET /api/dashboard/session?token=…: the link of the sign-in e-mail. A valid single-use token
 * becomes the session cookie and a 303 to /dashboard; a used, expired or wrong one gets a page
 * saying so.
 */
import * as v from 'valibot';
import { startSession } from '../billing/dashboard-session.js';
import { tokenHash } from '../billing/tokens.js';
import { html } from '../http/html.js';
import { route } from '../http/route.js';
import { pageReply } from './page-layout.js';

export const dashboardSessionRoute = route({
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
      return pageReply(
        'Sign-in link expired',
        html`<h1>This sign-in link does not work any more</h1><p>Links work once and for 15 minutes. <a href="/dashboard">Ask for a new one</a>.</p>`,
        { status: 400 },
      );
    }
    const cookie = await startSession(ports, config, customerId, now);
    ports.logger.log({ level: 'info', kind: 'dashboard.signed_in', customer_id: customerId });
    return new Response(null, { status: 303, headers: { location: '/dashboard', 'set-cookie': cookie, 'cache-control': 'no-store' } });
  },
});
