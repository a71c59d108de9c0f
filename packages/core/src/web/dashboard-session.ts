/**
 * The link of the sign-in e-mail, in two steps (issue 30, 3). GET /api/dashboard/session?token=…
 * only shows a page with a button; the button POSTs the token back to /api/dashboard/session,
 * which spends it: a valid single-use token becomes the session cookie and a 303 to /dashboard,
 * a used, expired or wrong one gets a page saying so. So a mail scanner that prefetches the link
 * spends nothing, and the POST carries the browser's Origin, checked against BASE_URL's like
 * every state-changing dashboard route: another site cannot sign a visitor into the account
 * whose link it holds (login CSRF).
 */
import * as v from 'valibot';
import { requireSameOrigin, startSession } from '../billing/dashboard-session.js';
import { readFormOrJson } from '../billing/form-body.js';
import { tokenHash } from '../billing/tokens.js';
import { ApiError } from '../errors/api-error.js';
import { html } from '../http/html.js';
import type { Reply } from '../http/json.js';
import { route, type WithAccounts } from '../http/route.js';
import type { DashboardState } from '../ports/index.js';
import { detailsOf } from '../validation/issues.js';
import { pageReply } from './page-layout.js';

const TokenSchema = v.pipe(v.string('must be a string'), v.maxLength(200));
const SpendRequestSchema = v.object({ token: TokenSchema });

function linkSpentPage(): Reply {
  return pageReply(
    'Sign-in link expired',
    html`<h1>This sign-in link does not work any more</h1><p>Links work once and for 15 minutes. <a href="/dashboard">Ask for a new one</a>.</p>`,
    { status: 400 },
  );
}

export const dashboardSessionRoute = route({
  method: 'GET',
  path: '/api/dashboard/session',
  access: 'open',
  query: { token: { schema: v.optional(TokenSchema) } },
  summary: 'The e-mailed sign-in link: a page whose button signs in (the GET spends nothing)',
  tags: ['dashboard'],
  responses: {
    200: { description: 'HTML page with a button that POSTs the token to /api/dashboard/session.' },
    400: { description: 'HTML page: the link has no token.' },
  },
  handler({ query }) {
    const token = query.token as string | undefined;
    if (!token) return linkSpentPage();
    return pageReply(
      'Sign in to the dashboard',
      html`<h1>Sign in to the dashboard</h1>
<p>This link signs you in once, within 15 minutes of being sent.</p>
<form method="post" action="/api/dashboard/session"><input type="hidden" name="token" value="${token}"><button type="submit">Sign in</button></form>`,
      // The POST must carry this origin, not `null` (page-layout.ts); only this origin sees the Referer.
      { referrer: 'same-origin' },
    );
  },
});

export const dashboardSessionSpendRoute = route({
  method: 'POST',
  path: '/api/dashboard/session',
  access: 'open',
  summary: 'Spend a sign-in link’s token (same origin only): sets the session cookie and redirects to /dashboard',
  tags: ['dashboard'],
  body: { schema: SpendRequestSchema, description: 'token=… as the sign-in page’s form posts it (or JSON {token}).', maxBytes: 1024 },
  responses: {
    303: { description: 'Signed in; to /dashboard.', headers: ['Location', 'Set-Cookie'] },
    400: { description: 'HTML page: the link is used, expired or wrong.' },
  },
  errors: ['unauthorized', 'invalid_body', 'unsupported_media_type', 'payload_too_large'],
  async handler({ request, ports, config, now }: WithAccounts<DashboardState>) {
    // Before anything is read or spent: a token posted from another origin is never consumed.
    requireSameOrigin(request, config);
    const parsed = v.safeParse(SpendRequestSchema, await readFormOrJson(request, 1024));
    if (!parsed.success) throw new ApiError('invalid_body', { details: detailsOf(parsed.issues) });
    const customerId = parsed.output.token ? await ports.accounts.consumeLoginToken(tokenHash(parsed.output.token), new Date(now)) : null;
    if (!customerId) return linkSpentPage();
    const cookie = await startSession(ports, config, customerId, now);
    ports.logger.log({ level: 'info', kind: 'dashboard.signed_in', customer_id: customerId });
    return new Response(null, { status: 303, headers: { location: '/dashboard', 'set-cookie': cookie, 'cache-control': 'no-store' } });
  },
});
