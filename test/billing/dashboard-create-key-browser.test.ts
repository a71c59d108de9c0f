/**
 * Issue 30 items 7 and 8 in Debian's Chromium: the plan by name and price, the API reference
 * linked; a customer who revokes keys is warned before the last
 * active one goes, and can always create a new key (live or test), shown once; the sixth active
 * key is refused with a sentence the page shows. The Node host's server on a loopback port; the
 * session is started in the store directly (the sign-in flow has its own browser test).
 */
import { createHash } from 'node:crypto';
import { issueCustomerKey } from '@catalogue/core';
import { createTestService } from '@catalogue/core/memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { freePort } from '../hosts/process-host.js';
import { launchChromium } from '../support/chromium.js';
import { type BillingHarness, createBillingHarness } from './support/billing-harness.js';
import { type StripeApiStandIn, startStripeApi } from './support/stripe-api-server.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const keyShape = /ck_(?:live|test)_[0-9A-Za-z]{32}/;

let stripeApi: StripeApiStandIn;
let h: BillingHarness;
let running: RunningServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  stripeApi = await startStripeApi();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  h = createBillingHarness({ stripeApi, mailer: { send: async () => undefined }, baseUrl: base });
  running = await listen(createNodeServer(h.service, { trustProxy: false }), port, '127.0.0.1', 1000);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await stripeApi?.close();
});

const apiStatus = async (key: string) => (await fetch(`${base}/api/v1/usage`, { headers: { 'x-api-key': key } })).status;

describe('dashboard: create a key, and a warning before the last one is revoked', () => {
  it('warns on the last active key, creates live and test keys shown once, refuses a sixth', async () => {
    const issued = await issueCustomerKey(h.accounts, { email: 'keys@example.com', tier: 'self_serve_299', environment: 'live' }, NOW);
    const token = 'browser-session-token-for-create-key';
    await h.accounts.createSession({
      hash: createHash('sha256').update(`catalogue:token:${token}`).digest('hex'),
      customer_id: issued.customer.id,
      created_at: NOW,
      expires_at: new Date(NOW.getTime() + 86_400_000),
    });
    const context = await browser.newContext();
    await context.addCookies([{ name: 'catalogue_session', value: token, url: base, httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(`${base}/dashboard`);
    await expect.poll(() => page.locator('#keys-body tr').count()).toBe(1);
    // The plan by its name and price (item 8), never the tier id; the API reference one click away.
    expect(await page.locator('#who').textContent()).toBe('keys@example.com · Self-serve 299 plan, $299 a month · account active');
    expect(await page.content()).not.toContain('self_serve_299');
    expect(await page.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/docs');

    // Revoking the only active key says that it is the last one before it goes.
    await page.getByRole('button', { name: `Revoke key ${issued.plaintext.slice(0, 12)}` }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('revoked');
    expect(dialogs[0]).toContain('last active key');
    expect(await apiStatus(issued.plaintext)).toBe(401);

    // Not locked out: a new live key, shown once and working at once.
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#reveal').isVisible()).toBe(true);
    const live = (await page.locator('#reveal-key').textContent()) ?? '';
    expect(live).toMatch(/^ck_live_/);
    expect(await apiStatus(live)).toBe(200);
    await page.reload();
    await expect.poll(() => page.locator('#keys-body tr').count()).toBe(2);
    expect(await page.content()).not.toMatch(keyShape);

    // A test key too; four more reach the cap of five active keys, and the sixth is refused.
    await page.getByLabel(/^Test/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#reveal-key').textContent()).toMatch(/^ck_test_/);
    const test = (await page.locator('#reveal-key').textContent()) ?? '';
    expect(await apiStatus(test)).toBe(200);
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect.poll(() => page.locator('#keys-body tr').count()).toBe(4 + i);
    }
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('5 active keys');
    expect(await page.locator('#keys-body tr').count()).toBe(6);

    // Revoking one of several active keys keeps the ordinary question.
    await page.getByRole('button', { name: `Revoke key ${live.slice(0, 12)}` }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain(`Key ${live.slice(0, 12)} revoked`);
    expect(dialogs.at(-1)).not.toContain('last active key');
    await context.close();

    // The route keeps the dashboard's CSRF check: no Origin (or another one), no key.
    const cookie = `catalogue_session=${token}`;
    const body = JSON.stringify({ environment: 'live' });
    for (const origin of [null, 'https://evil.example']) {
      const headers: Record<string, string> = { cookie, 'content-type': 'application/json' };
      if (origin) headers.origin = origin;
      expect((await fetch(`${base}/api/dashboard/keys`, { method: 'POST', headers, body })).status).toBe(401);
    }
    const bad = await fetch(`${base}/api/dashboard/keys`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: '{"environment":"prod"}',
    });
    expect(bad.status).toBe(400);
    expect(h.logs.some((r) => r.kind === 'dashboard.key_created')).toBe(true);
    expect(JSON.stringify(h.logs)).not.toContain(live);
  }, 60_000);

  it('without Stripe, the plan page tells a buyer in a plain sentence and logs the operator detail', async () => {
    const t = createTestService();
    const port = await freePort();
    const plain = `http://127.0.0.1:${port}`;
    const server = await listen(createNodeServer(t.service, { trustProxy: false }), port, '127.0.0.1', 1000);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${plain}/api/signup`);
      const note = (await page.locator('#billing-unavailable').textContent()) ?? '';
      expect(note.replace(/\s+/g, ' ')).toBe(
        "Plans can't be bought on this site yet: online payment is not set up. To get an API key now, contact the team that runs this service.",
      );
      await page.getByLabel('E-mail for your key').first().fill('buyer@example.com');
      await page.getByRole('button', { name: 'Subscribe for $49' }).click();
      await page.getByRole('heading', { name: 'Billing is not configured' }).waitFor();
      for (const text of [await page.content(), note]) expect(text).not.toMatch(/STRIPE_|admin\/keys|ck_test_/);
      expect(t.logs).toContainEqual(expect.objectContaining({ kind: 'billing.not_configured', detail: expect.stringContaining('STRIPE_SECRET_KEY') }));
    } finally {
      await context.close();
      await server.close();
    }
  });
});
