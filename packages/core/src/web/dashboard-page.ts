/** GET /dashboard: the page shell; the script fills it from the dashboard API. */
import { html } from '../http/html.js';
import { route } from '../http/route.js';
import { DASHBOARD_SCRIPT } from './dashboard-script.generated.js';
import { pageReply } from './page-layout.js';

const BODY = html`<h1>Your Music Catalogue API dashboard</h1>
<p id="status" role="status" aria-live="polite"></p>

<section id="signin" hidden aria-labelledby="signin-heading">
<h2 id="signin-heading">Sign in</h2>
<p>We e-mail you a link that signs you in. No password.</p>
<form id="signin-form">
<label for="email">E-mail address of your subscription</label><br>
<input id="email" name="email" type="email" autocomplete="email" required>
<button type="submit">E-mail me a sign-in link</button>
</form>
</section>

<div id="account" hidden>
<p id="who"></p>
<p>Calling the API: send a key in the <code>X-API-Key</code> header. Every route and answer is in the <a href="/docs">API reference</a> (<a href="/api/v1/openapi.json">OpenAPI description</a>).</p>
<section id="reveal" hidden tabindex="-1" role="region" aria-labelledby="reveal-label" class="notice">
<p id="reveal-label"></p>
<p><code id="reveal-key" class="key"></code></p>
<p>Store it in a secret manager. We keep only a hash and cannot show it again.</p>
<button type="button" id="reveal-dismiss" class="secondary">I have stored it</button>
</section>

<section aria-labelledby="keys-heading">
<h2 id="keys-heading" tabindex="-1">API keys</h2>
<table>
<caption class="sr-only">Your keys, by the first 12 characters</caption>
<thead><tr><th scope="col">Key prefix</th><th scope="col">Environment</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Actions</th></tr></thead>
<tbody id="keys-body"></tbody>
</table>
<form id="create-key-form" aria-labelledby="create-key-heading">
<h3 id="create-key-heading">Create a key</h3>
<p>Each integration can have its own key; an account holds at most 5 active keys.</p>
<fieldset>
<legend>Environment</legend>
<input type="radio" id="create-live" name="environment" value="live" checked> <label for="create-live">Live (<code>ck_live_</code>, for production)</label><br>
<input type="radio" id="create-test" name="environment" value="test"> <label for="create-test">Test (<code>ck_test_</code>, the sandbox)</label>
</fieldset>
<p><button type="submit">Create key</button></p>
</form>
</section>

<section aria-labelledby="usage-heading">
<h2 id="usage-heading">Usage</h2>
<p id="usage-summary"></p>
<p role="group" aria-label="Chart view"><button type="button" id="view-daily" class="secondary" aria-pressed="true">Daily, this month</button> <button type="button" id="view-monthly" class="secondary" aria-pressed="false">Monthly, last six months</button></p>
<div id="chart"></div>
<p id="chart-note"></p>
<table>
<caption class="sr-only">Calls per month</caption>
<thead><tr><th scope="col">Month</th><th scope="col">Live calls</th><th scope="col">Test calls</th></tr></thead>
<tbody id="usage-body"></tbody>
</table>
</section>

<section id="settings" hidden aria-labelledby="settings-heading">
<h2 id="settings-heading">Past the monthly quota</h2>
<form id="settings-form">
<fieldset>
<legend>When the month's calls pass the quota</legend>
<input type="radio" id="overage-block" name="overage" value="block"> <label for="overage-block">Refuse further calls (429) until the month ends</label><br>
<input type="radio" id="overage-bill" name="overage" value="bill"> <label for="overage-bill">Keep serving and bill each extra call</label>
</fieldset>
<p><button type="submit">Save</button></p>
</form>
</section>

<p><button type="button" id="signout" class="secondary">Sign out</button></p>
</div>`;

export const dashboardPageRoute = route({
  method: 'GET',
  path: '/dashboard',
  access: 'open',
  summary: 'The customer dashboard (HTML)',
  tags: ['dashboard'],
  responses: { 200: { description: 'HTML page.' } },
  handler: () => pageReply('Dashboard — Music Catalogue API', BODY, { script: DASHBOARD_SCRIPT }),
});
