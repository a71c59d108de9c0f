/** GET /api/signup: the plan page of the self-serve signup; each plan's form posts to POST /api/signup. */
import { type Html, html } from '../http/html.js';
import { route } from '../http/route.js';
import { TIERS } from '../tiers.js';
import { BILLING_NOT_CONFIGURED } from './billing-unavailable-page.js';
import { pageReply } from './page-layout.js';
import { SELF_SERVE_TIERS } from './signup.js';

function signupPage(billingConfigured: boolean): Html {
  const plans = SELF_SERVE_TIERS.map((id) => {
    const t = TIERS[id];
    return html`<section class="plan" aria-labelledby="plan-${id}">
<h2 id="plan-${id}">$${t.priceUsdPerMonth} / month</h2>
<ul><li>${t.quotaPerMonth.toLocaleString('en-US')} calls a month</li><li>${t.burstPerMinute} calls a minute</li><li>${t.concurrency} requests in flight per key</li><li>$${t.overagePerCall} per call past the quota, if you choose to be billed</li></ul>
<form method="post" action="/api/signup">
<input type="hidden" name="tier" value="${id}">
<label for="email-${id}">E-mail for your key</label><br>
<input id="email-${id}" name="email" type="email" autocomplete="email" required><br><br>
<button type="submit">Subscribe for $${t.priceUsdPerMonth}</button>
</form>
</section>
`;
  });
  return html`<h1>Music Catalogue API plans</h1>
${billingConfigured ? '' : BILLING_NOT_CONFIGURED}
<p>Pick a plan. After payment your key is shown once and e-mailed to you.</p>
<div class="plans">${plans}</div>
<p>Already a customer? <a href="/dashboard">Sign in to the dashboard</a>.</p>`;
}

export const signupPageRoute = route({
  method: 'GET',
  path: '/api/signup',
  access: 'open',
  summary: 'Plan page of the self-serve signup (HTML)',
  tags: ['billing'],
  responses: { 200: { description: 'HTML page with the three self-serve plans.' } },
  handler: ({ ports }) => pageReply('Plans — Music Catalogue API', signupPage(ports.billing !== undefined)),
});
