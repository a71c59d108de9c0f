/**
 * GET /dashboard/welcome?session_id=… — where Stripe sends the buyer after checkout. The
 * session is checked with Stripe; the page waits up to 10 s for the webhook to have created
 * the customer, then signs the buyer in and shows the key once (the reveal row is deleted
 * as it is read). A reload shows no key and signs nobody in: the URL is not a credential
 * after its first use.
 */
import * as v from 'valibot';
import { revealContext } from '../billing/apply-event.js';
import { startSession } from '../billing/dashboard-session.js';
import { unseal } from '../billing/seal.js';
import { type Html, html } from '../http/html.js';
import { route, type WithAccounts } from '../http/route.js';
import type { BillingState, Customer, DashboardState, Ports } from '../ports/index.js';
import type { QueryOutput } from '../validation/query.js';
import { pageReply } from './page-layout.js';

export const WELCOME_WAIT_MS = 10_000;
const POLL_MS = 200;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

async function waitForCustomer(ports: Ports<BillingState>, sessionId: string, signal: AbortSignal): Promise<Customer | null> {
  // Real time on purpose: the webhook arrives on another request, whatever the injected clock says.
  const until = Date.now() + WELCOME_WAIT_MS;
  for (;;) {
    const customer = await ports.accounts.findCustomerByCheckoutSession(sessionId);
    if (customer || Date.now() >= until || signal.aborted) return customer;
    await sleep(POLL_MS, signal);
  }
}

const WELCOME_QUERY = { session_id: { schema: v.optional(v.pipe(v.string(), v.maxLength(255))) } };

const answer = (title: string, body: Html, status = 200, headers: Record<string, string> = {}) => pageReply(title, body, { status, headers });

export const dashboardWelcomeRoute = route({
  method: 'GET',
  path: '/dashboard/welcome',
  access: 'open',
  query: WELCOME_QUERY,
  summary: 'After checkout: the one-time reveal of the new key (HTML)',
  tags: ['dashboard'],
  responses: { 200: { description: 'HTML page with the key, shown once.' } },
  async handler({ query, ports, config, now, signal }: WithAccounts<BillingState & DashboardState, QueryOutput<typeof WELCOME_QUERY>>) {
    const sessionId = query.session_id;
    const checkout = sessionId && ports.billing ? await ports.billing.getCheckout(sessionId) : null;
    if (!sessionId || !checkout || checkout.status !== 'complete' || !checkout.paid) {
      return answer(
        'Payment not confirmed',
        html`<h1>We could not confirm this payment</h1><p>If you paid, your key is on its way by e-mail. <a href="/api/signup">Back to the plans</a>.</p>`,
        400,
      );
    }
    const customer = await waitForCustomer(ports, sessionId, signal);
    if (!customer) {
      return answer(
        'Almost there',
        html`<h1>Payment received</h1><p>Your key is being issued and will arrive by e-mail within a minute. <a href="">Reload this page</a> to see it here.</p>`,
        202,
      );
    }
    const [reveal] = await ports.accounts.takeReveals(customer.id, new Date(now));
    if (!reveal || !config.secretKey) {
      return answer(
        'Key already shown',
        html`<h1>This key was already shown</h1><p>It is in the e-mail we sent you. Lost it? <a href="/dashboard">Sign in to the dashboard</a> and rotate it.</p>`,
      );
    }
    const key = await unseal(config.secretKey, reveal.sealed, revealContext(customer.id, reveal.key_id));
    const cookie = await startSession(ports, config, customer.id, now);
    ports.logger.log({ level: 'info', kind: 'dashboard.key_revealed', customer_id: customer.id, key_id: reveal.key_id });
    return answer(
      'Your API key',
      html`<h1>Welcome! Here is your API key</h1>
<section class="notice" aria-labelledby="key-label" tabindex="-1" id="reveal">
<p id="key-label">Shown once. Copy it now and store it in a secret manager:</p>
<p><code class="key" id="reveal-key">${key}</code></p>
</section>
<p>Send it in the <code>X-API-Key</code> header. We also e-mailed it to ${customer.email}.</p>
<p><a href="/dashboard">Go to your dashboard</a></p>`,
      200,
      { 'set-cookie': cookie },
    );
  },
});
