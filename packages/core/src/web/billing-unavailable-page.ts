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

export const BILLING_NOT_CONFIGURED = html`<p class="notice" id="billing-unavailable">Billing is not configured on this server, so plans cannot be bought
here. The operator enables it by setting <code>STRIPE_SECRET_KEY</code>, <code>STRIPE_WEBHOOK_SECRET</code> and
the <code>STRIPE_PRICE_SELF_SERVE_…</code> prices. Meanwhile a key comes from the operator
(<code>POST /api/v1/admin/keys</code> with the admin token), and a local start prints a ready
<code>ck_test_</code> demo key.</p>`;

export function billingUnavailablePage(): Reply {
  return pageReply(
    'Billing is not configured — Music Catalogue API',
    html`<h1>Billing is not configured</h1>
${BILLING_NOT_CONFIGURED}
<p><a href="/api/signup">Back to the plans</a> · <a href="/dashboard">Dashboard</a> · <a href="/docs">API reference</a></p>`,
    { status: 503, headers: { 'retry-after': '3600' } },
  );
}
