/**
 * The embedded default as a local user meets it (issue 16 item 9): `npm start`'s Node host with
 * no DATABASE_URL, no Stripe and the `log` mail transport. In Debian's Chromium the user asks for
 * a sign-in link as the printed demo customer, follows the link the log printed, and sees the
 * dashboard with a chart scaled to a few calls (not to the 250,000 quota), then Subscribe says
 * billing is not configured. The dashboard screenshot goes to test-artifacts/embedded/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHostProcess, spawnNodeHost } from '../support/node-host-process.js';

const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/embedded');
// In i16b's port range (COORDINATION.md): the host must listen on a port known before it starts.
const PORT = 56171;
const BASE = `http://localhost:${PORT}`;
const DEMO_EMAIL = 'demo@catalogue.localhost';
const CALLS = 25;

const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-embedded-browser-'));
let host: NodeHostProcess;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  host = await spawnNodeHost({ PORT: String(PORT), CATALOGUE_DATA_DIR: dataDir, LOG_LEVEL: 'info' }, 180_000);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 200_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The sign-in link of the newest `mail.logged` line the host printed, once there is one. */
async function printedSignInLink(after: number): Promise<string> {
  for (let polls = 0; polls < 150; polls++) {
    const lines = host.output().slice(after).split('\n');
    for (const line of lines.reverse()) {
      if (!line.includes('"mail.logged"')) continue;
      const record = JSON.parse(line) as { links?: string[] };
      const link = record.links?.find((l) => l.includes('/api/dashboard/session?token='));
      if (link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no sign-in link was printed:\n${host.output().slice(after)}`);
}

describe('the embedded default in a browser', () => {
  it('signs in from the link the log transport printed and shows the usage chart', async () => {
    expect(host.listening, host.output()).toBe(true);
    const demoKey = /demo key:\s+(ck_test_\S+)/.exec(host.output())?.[1] as string;
    expect(demoKey).toBeTruthy();
    expect(host.output()).toContain(`sign in as ${DEMO_EMAIL}`);
    for (let i = 0; i < CALLS; i++) {
      expect((await fetch(`${BASE}/api/v1/search?q=house&limit=3`, { headers: { 'x-api-key': demoKey } })).status).toBe(200);
    }

    const page = await (await browser.newContext({ viewport: { width: 1100, height: 1400 } })).newPage();
    await page.goto(`${BASE}/dashboard`);
    await page.getByLabel('E-mail address of your subscription').fill(DEMO_EMAIL);
    const before = host.output().length;
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    const link = await printedSignInLink(before);
    // The log printed the link whole but never a key.
    const mailLines = host
      .output()
      .slice(before)
      .split('\n')
      .filter((l) => l.includes('"mail.logged"'));
    expect(mailLines.join('\n')).not.toMatch(/ck_(?:live|test)_[0-9A-Za-z]{32}/);

    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${BASE}/dashboard`);
    await page.locator('#usage-chart').waitFor();
    expect(await page.locator('#who').textContent()).toContain(DEMO_EMAIL);
    expect(await page.locator('#usage-summary').textContent()).toContain(`test keys: ${CALLS} of 250,000`);
    // Scaled to the data: the axis tops at 50 for 25 calls, and says what it counts.
    const chart = page.locator('#usage-chart');
    expect(await chart.locator('title#chart-title').textContent()).toMatch(/^Calls per day in \w+ \d{4}, live and test$/);
    const axisLabels = await chart.locator('text').allTextContents();
    expect(axisLabels).toEqual(expect.arrayContaining(['0', '50', 'Calls', expect.stringMatching(/^Day of \w+ \d{4} \(UTC\)$/)]));
    expect(axisLabels).not.toContain('250,000');
    const tallest = Math.max(...(await chart.locator('rect').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))))));
    expect(tallest).toBeGreaterThan(50);
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });

    await page.getByRole('button', { name: 'Monthly, last six months' }).click();
    expect(await chart.locator('title#chart-title').textContent()).toBe('Calls per month, live and test, last six months');

    await page.goto(`${BASE}/api/signup`);
    await page.getByLabel('E-mail for your key').first().fill('someone@example.com');
    await page.getByRole('button', { name: 'Subscribe for $49' }).click();
    await page.getByRole('heading', { name: 'Billing is not configured' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'subscribe-without-stripe.png'), fullPage: true });
  }, 120_000);
});
