/**
 * The local experience without Stripe or a mail server (issue 16 item 9), through the service
 * as the hosts build it: the `log` transport prints a sign-in link that signs in; Subscribe
 * answers a browser with a page saying billing is not configured (JSON clients keep the 503
 * code); the dashboard's usage has this month day by day.
 */

import type { LogRecord } from '@catalogue/core';
import { createService } from '@catalogue/core';
import {
  createManualClock,
  createMemoryAccounts,
  createMemoryCatalogue,
  createMemoryLimiter,
  createMemoryMailer,
  createTestService,
} from '@catalogue/core/memory';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { describe, expect, it, vi } from 'vitest';
import { fixtureData } from '../support/fixture-data.js';
import { expectError } from '../support/service.js';
import { followSignInLink } from '../support/sign-in-link.js';

const BASE = 'http://localhost:8080';

describe('the local default without Stripe or a mail server', () => {
  it('prints a sign-in link in the log that signs in to the dashboard', async () => {
    const records: LogRecord[] = [];
    const hosted = await createServiceFromEnv(
      { CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: 'local-admin-token-0123456789abcdef', BASE_URL: BASE },
      { logger: { log: (r) => records.push(r) }, catalogueData: fixtureData() },
    );
    try {
      const fetch = (path: string, init?: RequestInit) => hosted.service.fetch(new Request(`${BASE}${path}`, init));
      const issued = await fetch('/api/v1/admin/keys', {
        method: 'POST',
        headers: { authorization: 'Bearer local-admin-token-0123456789abcdef', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'me@example.com', tier: 'self_serve_99' }),
      });
      expect(issued.status).toBe(201);
      const { key } = (await issued.json()) as { key: string };
      const login = await fetch('/api/dashboard/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: BASE },
        body: JSON.stringify({ email: 'me@example.com' }),
      });
      expect(login.status).toBe(202);
      await vi.waitFor(() => expect(records.some((r) => r.kind === 'mail.logged')).toBe(true));
      const mail = records.find((r) => r.kind === 'mail.logged');
      const link = (mail?.links as string[] | undefined)?.find((l) => l.includes('/api/dashboard/session?token='));
      expect(link, JSON.stringify(records)).toBeDefined();
      expect(JSON.stringify(records)).not.toContain(key);
      const session = await followSignInLink(fetch, link as string, BASE);
      expect(session.status).toBe(303);
      const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] as string;
      expect((await fetch('/api/dashboard/keys', { headers: { cookie } })).status).toBe(200);
    } finally {
      await hosted.close();
    }
  });

  it('answers Subscribe with an HTML page saying billing is not configured; JSON clients keep 503 billing_unavailable', async () => {
    const t = createTestService();
    const form = await t.fetch('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: 'tier=self_serve_49&email=a%40example.com',
    });
    expect(form.status).toBe(503);
    expect(form.headers.get('content-type')).toContain('text/html');
    expect(await form.text()).toContain('Billing is not configured');
    const plans = await (await t.fetch('/api/signup')).text();
    expect(plans).toContain("Plans can't be bought on this site yet");
    await expectError(
      await t.fetch('/api/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tier: 'self_serve_49', email: 'a@example.com' }),
      }),
      503,
      'billing_unavailable',
    );
  });

  it('gives the dashboard this month day by day, the unflushed calls on today', async () => {
    const clock = createManualClock('2026-11-05T10:00:00Z');
    const accounts = createMemoryAccounts({ now: () => clock.now() });
    const mailer = createMemoryMailer();
    const service = createService(
      { catalogue: createMemoryCatalogue(fixtureData()), accounts, limiter: createMemoryLimiter({ durable: accounts }), clock, mailer },
      { baseUrl: BASE, adminToken: 'admin' },
    );
    const fetch = (path: string, init?: RequestInit) => service.fetch(new Request(`${BASE}${path}`, init));
    const issued = (await (
      await fetch('/api/v1/admin/keys', {
        method: 'POST',
        headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'days@example.com', tier: 'self_serve_99', environment: 'live' }),
      })
    ).json()) as { key: string; customer_id: string };
    // Two calls flushed on the 2nd, then 3 calls today that no flush has written yet.
    await accounts.addUsage(issued.customer_id, 'live', '2026-11', 2, new Date('2026-11-02T08:00:00Z'));
    for (let i = 0; i < 3; i++) expect((await fetch('/api/v1/masters/113', { headers: { 'x-api-key': issued.key } })).status).toBe(200);
    await fetch('/api/dashboard/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE },
      body: JSON.stringify({ email: 'days@example.com' }),
    });
    await vi.waitFor(() => expect(mailer.sent.at(-1)?.text).toMatch(/\/api\/dashboard\/session\?token=/));
    const link = mailer.sent.at(-1)?.text.match(/\/api\/dashboard\/session\?token=\S+/)?.[0] as string;
    const cookie = ((await followSignInLink(fetch, link, BASE)).headers.get('set-cookie') ?? '').split(';')[0] as string;
    const usage = (await (await fetch('/api/dashboard/usage', { headers: { cookie } })).json()) as {
      days: Array<{ date: string; live: number; test: number }>;
    };
    expect(usage.days.map((d) => d.date)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']);
    expect(usage.days[1]).toEqual({ date: '2026-11-02', live: 2, test: 0 });
    expect(usage.days[4]).toEqual({ date: '2026-11-05', live: 3, test: 0 });
  });
});
