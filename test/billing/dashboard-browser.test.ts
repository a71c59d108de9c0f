/**
 * The whole customer journey in Debian's Chromium, against the service behind the Node host's
 * server on a loopback port: signup → Checkout (a stand-in page) → webhook → one-time reveal,
 * then sign-in by the mailed link, keys by prefix only, rotate (new key shown once), revoke.
 * Screenshots go to test-artifacts/billing/.
 */
import { mkdirSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { type BillingHarness, checkoutCompletedEvent, createBillingHarness, WEBHOOK_SECRET } from './support/billing-harness.js';
import { secretsFoundIn } from './support/secret-scan.js';
import { type SmtpInbox, startSmtpInbox } from './support/smtp-inbox.js';
import { type StripeApiStandIn, startStripeApi } from './support/stripe-api-server.js';

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/billing');
const EMAIL = 'browser@example.com';

let stripeApi: StripeApiStandIn;
let inbox: SmtpInbox;
let h: BillingHarness;
let running: RunningServer;
let browser: Browser;
let base: string;

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  stripeApi = await startStripeApi();
  inbox = await startSmtpInbox();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  h = createBillingHarness({ stripeApi, mailTransport: inbox.url, baseUrl: base });
  running = await listen(createNodeServer(h.service, { trustProxy: false }), port, '127.0.0.1', 1000);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await running?.close();
  await stripeApi?.close();
  await inbox?.close();
});

const keyShape = /ck_(?:live|test)_[0-9A-Za-z]{32}/;
const apiStatus = async (key: string) => (await fetch(`${base}/api/v1/usage`, { headers: { 'x-api-key': key } })).status;

describe('dashboard in a browser', () => {
  it('signup, reveal once, sign in by the mailed link, rotate, revoke', async () => {
    const secrets: string[] = [];
    const buyer = await browser.newContext();
    const page = await buyer.newPage();
    // Stripe's hosted Checkout page is outside the test: a stand-in answers for it.
    await page.route('https://checkout.stripe.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Checkout</title><h1>Stripe Checkout (stand-in)</h1>' }),
    );

    await page.goto(`${base}/api/signup`);
    await page.getByLabel('E-mail for your key').first().fill(EMAIL);
    await page.getByRole('button', { name: 'Subscribe for $49' }).click();
    await page.waitForURL(/checkout\.stripe\.test/);
    const sessionId = page.url().split('/').pop() as string;
    const session = stripeApi.complete(sessionId, 'cus_browser', 'sub_browser');

    // Stripe fires the webhook and sends the buyer back; the welcome page waits for the webhook.
    const welcome = page.goto(`${base}/dashboard/welcome?session_id=${sessionId}`);
    const payload = JSON.stringify(checkoutCompletedEvent(session));
    const hook = await fetch(`${base}/api/v1/stripe/webhook`, { method: 'POST', body: payload, headers: { 'stripe-signature': sign(payload) } });
    expect(hook.status).toBe(200);
    expect((await welcome)?.status()).toBe(200);
    const revealed = (await page.locator('#reveal-key').textContent()) ?? '';
    expect(revealed).toMatch(keyShape);
    secrets.push(revealed);
    await page.screenshot({ path: join(ARTIFACTS, '1-welcome-reveal.png'), fullPage: true });
    // Reloading shows no key any more.
    await page.reload();
    expect(await page.content()).not.toContain(revealed);
    await buyer.close();

    // Later, in a fresh browser: sign in by the e-mailed link.
    const later = await browser.newContext();
    const dash = await later.newPage();
    dash.on('dialog', (dialog) => void dialog.accept());
    // The page's CSP allows its one embedded script by hash and nothing inline besides.
    const refused: string[] = [];
    dash.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await dash.goto(`${base}/dashboard`);
    await dash.getByLabel('E-mail address of your subscription').fill(EMAIL);
    await dash.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await expect.poll(() => dash.locator('#status').textContent()).toContain('sign-in link is on its way');
    const mails = await inbox.waitFor(EMAIL, 2);
    expect(mails[0]?.text).toContain(revealed); // the key e-mail
    const link = mails[1]?.text.match(/http:\/\/127\.0\.0\.1:\d+\/api\/dashboard\/session\?token=\S+/)?.[0] as string;
    secrets.push(decodeURIComponent(new URL(link).searchParams.get('token') as string));
    // The link's page spends nothing (a mail scanner's prefetch signs no one in); its button does.
    await dash.goto(link);
    expect(await later.cookies()).toEqual([]);
    await dash.getByRole('button', { name: 'Sign in' }).click();
    await dash.waitForURL(`${base}/dashboard`);
    await expect.poll(() => dash.locator('#keys-body tr').count()).toBe(1);
    const prefix = revealed.slice(0, 12);
    expect(await dash.locator('#keys-body').textContent()).toContain(prefix);
    expect(await dash.content()).not.toMatch(keyShape);
    const cookies = await later.cookies();
    expect(cookies.find((c) => c.name === 'catalogue_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    secrets.push(cookies.find((c) => c.name === 'catalogue_session')?.value as string);
    await dash.screenshot({ path: join(ARTIFACTS, '2-dashboard-prefix-only.png'), fullPage: true });

    // Rotate: the new key is shown once and focused; the old key is refused at once.
    await dash.getByRole('button', { name: `Rotate key ${prefix}` }).click();
    await expect.poll(() => dash.locator('#reveal').isVisible()).toBe(true);
    const rotated = (await dash.locator('#reveal-key').textContent()) ?? '';
    expect(rotated).toMatch(keyShape);
    expect(rotated).not.toBe(revealed);
    secrets.push(rotated);
    expect(await dash.evaluate(() => document.activeElement?.id)).toBe('reveal');
    await dash.screenshot({ path: join(ARTIFACTS, '3-rotated-new-key-once.png'), fullPage: true });
    expect(await apiStatus(revealed)).toBe(401);
    expect(await apiStatus(rotated)).toBe(200);
    await dash.reload();
    await expect.poll(() => dash.locator('#keys-body tr').count()).toBe(2);
    expect(await dash.content()).not.toMatch(keyShape);

    // Revoke the new key.
    await dash.getByRole('button', { name: `Revoke key ${rotated.slice(0, 12)}` }).click();
    await expect.poll(() => dash.locator('#status').textContent()).toContain('revoked');
    await expect.poll(() => dash.locator('#keys-body').textContent()).not.toContain('Revoke');
    await dash.screenshot({ path: join(ARTIFACTS, '4-revoked.png'), fullPage: true });
    expect(await apiStatus(rotated)).toBe(401);
    expect(refused).toEqual([]);
    await later.close();

    await h.settle();
    expect(secretsFoundIn({ logs: h.logs, tables: h.accounts.tables() }, secrets)).toEqual([]);
  }, 90_000);
});

const signer = new Stripe('sk_test_signing_only');
function sign(payload: string): string {
  return signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
}
