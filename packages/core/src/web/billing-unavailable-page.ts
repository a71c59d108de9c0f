/**
 * What a browser sees when self-serve billing is not configured (no STRIPE_SECRET_KEY, e.g. the
 * embedded default): an HTML page saying so and what to do instead, where a JSON client gets
 * `503 billing_unavailable` (issue 16 item 9; docs/decisions.md §4).
 */
import { html } from '../http/html.js';
import type { Reply } from '../http/json.js';
import { pageReply } from './page-layout.js';

/** A form post or a client that asks for HTML is a browser: it gets the page, not JSON. */
export function wantsHtml(request: Request): boolean {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded' || (request.headers.get('accept') ?? '').includes('text/html');
}

/** What a buyer reads: a plain sentence. The operator's detail (which variables) goes to the log (OPERATOR_DETAIL). */
export const BILLING_NOT_CONFIGURED = html`<p class="notice" id="billing-unavailable">Plans can't be bought on this site yet: online payment is not set up.
To get an API key now, contact the team that runs this service.</p>`;

/** What the operator needs, logged (never shown to a buyer) when someone tries to buy. */
export const OPERATOR_DETAIL =
  'self-serve signup needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_SELF_SERVE_49 / _99 / _299; meanwhile issue keys with POST /api/v1/admin/keys';

export function billingUnavailablePage(): Reply {
  return pageReply(
    'Billing is not configured — Music Catalogue API',
    html`<h1>Billing is not configured</h1>
${BILLING_NOT_CONFIGURED}
<p><a href="/api/signup">Back to the plans</a> · <a href="/dashboard">Dashboard</a> · <a href="/docs">API reference</a></p>`,
    { status: 503, headers: { 'retry-after': '3600' } },
  );
}
