/**
 * Issue 30, items 1–6: what a hostile client tried against the web-facing parts, replayed on the
 * Node host as operators run it — a real process on its own PostgreSQL database and Redis, mail
 * over real SMTP (smtp-server) — plus refusals at start and the forms of TRUST_PROXY on hosts of
 * the in-memory demo. Every client here sits behind one trusted proxy (TRUST_PROXY=true), so a
 * test picks its own client IP with the rightmost X-Forwarded-For entry and no test's per-IP
 * window touches another's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../billing/support/smtp-inbox.js';
import { freePort, type RunningHost, startHost } from '../hosts/process-host.js';
import { issueCustomerOverHttp } from '../support/admin-keys.js';
import { type HostOnStores, startHostOnStores } from '../support/host-on-stores.js';
import { type NodeHostProcess, spawnHostProcess, spawnNodeHost } from '../support/node-host-process.js';

const ADMIN_TOKEN = 'hostile-client-admin-token-0123456789abcdef';
const SECRET_KEY = '7e'.repeat(32);

let stores: HostOnStores;
let smtp: SmtpInbox;
let host: NodeHostProcess;
let base: string;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  stores = await startHostOnStores((origin) => ({
    BASE_URL: origin,
    TRUST_PROXY: 'true',
    MAIL_TRANSPORT: smtp.url,
    MAIL_FROM: 'keys@catalogue.test',
    ADMIN_TOKEN,
    SECRET_KEY,
  }));
  ({ host, base } = stores);
}, 120_000);

afterAll(async () => {
  await stores?.stop();
  await smtp?.close();
});

/** A request from the client at `ip`, one trusted proxy in front of the host. */
function from(ip: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${base}${path}`, { redirect: 'manual', ...init, headers: { 'x-forwarded-for': ip, ...init.headers } });
}

function askForLink(ip: string, email: string, headers: Record<string, string> = { origin: base }): Promise<Response> {
  return from(ip, '/api/dashboard/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email }),
  });
}

async function customer(email: string): Promise<string> {
  return (await issueCustomerOverHttp(base, ADMIN_TOKEN, { email, tier: 'self_serve_49', environment: 'test' })).customerId;
}

/** The sign-in link of the n-th mail to `to` (1-based). */
async function linkFor(to: string, n = 1): Promise<string> {
  const mails = await smtp.waitFor(to, n);
  const link = mails[n - 1]?.text.match(/http:\/\/127\.0\.0\.1:\d+\/api\/dashboard\/session\?token=\S+/)?.[0];
  if (!link) throw new Error(`no sign-in link in the mail to ${to}`);
  return link;
}

/** Resolves once the host's output holds `count` lines of `kind`. */
async function logLines(kind: string, count: number, timeoutMs = 15_000): Promise<Array<Record<string, unknown>>> {
  for (let polls = 0; ; polls++) {
    const lines = host
      .stdout()
      .split('\n')
      .filter((line) => line.includes(`"kind":"${kind}"`))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    if (lines.length >= count) return lines;
    if (polls > timeoutMs / 50) throw new Error(`waited for ${count} ${kind} line(s), got ${lines.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('1. TRUST_PROXY=true takes the rightmost X-Forwarded-For address', () => {
  it('65 sign-in requests with a rotating first hop are one client: past the per-IP limit of 60 they are refused', async () => {
    const statuses: number[] = [];
    // A new address each time: the per-address cap of item 2 stays out of it.
    for (let i = 0; i < 65; i++) statuses.push((await askForLink(`10.${i}.0.1, 203.0.113.61`, `nobody${i}@example.com`)).status);
    expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(60);
    expect(statuses.slice(60)).toEqual([429, 429, 429, 429, 429]);
    // Another client behind the same proxy is not held back by it.
    expect((await askForLink('10.0.0.1, 203.0.113.62', 'nobody@example.com')).status).toBe(202);
  });
});

describe('2. sign-in mail bombing', () => {
  it('the login POST needs the dashboard’s Origin, like every state-changing dashboard route', async () => {
    for (const headers of [{}, { origin: 'https://attacker.example' }] as Array<Record<string, string>>) {
      const refused = await askForLink('203.0.113.21', 'nobody@example.com', headers);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: string }).error).toBe('unauthorized');
    }
  });

  it('mails one address at most 5 links an hour, and answers an unknown address exactly alike', async () => {
    await customer('bombed@example.com');
    const known: Array<[number, string]> = [];
    const unknown: Array<[number, string]> = [];
    for (let i = 0; i < 8; i++) {
      const a = await askForLink(`203.0.113.${30 + i}`, 'bombed@example.com');
      known.push([a.status, await a.text()]);
      const b = await askForLink(`203.0.113.${30 + i}`, 'never-bought@example.com');
      unknown.push([b.status, await b.text()]);
    }
    expect(known).toEqual(Array.from({ length: 8 }, () => [202, '{"accepted":true}']));
    expect(unknown).toEqual(known);
    // Three requests for each address were capped (logged without the address); five links reached bombed@.
    const capped = await logLines('dashboard.login_capped', 6);
    expect(JSON.stringify(capped)).not.toContain('bombed@');
    expect(JSON.stringify(capped)).not.toContain('never-bought@');
    expect(await smtp.waitFor('bombed@example.com', 5)).toHaveLength(5);
    expect(smtp.mails.filter((m) => m.to.includes('bombed@example.com'))).toHaveLength(5);
  });
});

describe('3. a sign-in link is spent by a POST from the page its GET shows', () => {
  it('GET shows a button and spends nothing (a mail scanner’s prefetch); the same-origin POST signs in once', async () => {
    await customer('link@example.com');
    expect((await askForLink('203.0.113.40', 'link@example.com')).status).toBe(202);
    const link = await linkFor('link@example.com');
    const token = new URL(link).searchParams.get('token') as string;

    for (let i = 0; i < 2; i++) {
      const page = await fetch(link, { redirect: 'manual' });
      expect(page.status).toBe(200);
      expect(page.headers.get('set-cookie')).toBeNull();
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toMatch(/<form method="post" action="\/api\/dashboard\/session">/);
      expect(html).toMatch(/<button type="submit">/);
    }

    const post = (origin: string | null) =>
      fetch(`${base}/api/dashboard/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
        body: new URLSearchParams({ token }).toString(),
      });
    // Login CSRF: another site's page posting the attacker's token is refused, and spends nothing.
    expect((await post('https://attacker.example')).status).toBe(401);
    expect((await post(null)).status).toBe(401);

    const signedIn = await post(base);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/dashboard');
    const cookie = (signedIn.headers.get('set-cookie') as string).split(';')[0] as string;
    expect((await fetch(`${base}/api/dashboard/keys`, { headers: { cookie } })).status).toBe(200);
    // Spent: the second POST gets the page saying the link no longer works.
    const again = await post(base);
    expect(again.status).toBe(400);
    expect(again.headers.get('set-cookie')).toBeNull();
  });
});

describe('4. the admin token', () => {
  it('after 10 failures a minute from one IP: 429 with Retry-After, even for the right token; logged without the token', async () => {
    const wrong = 'wrong-admin-token-guess-0123456789abcdef';
    const metrics = (ip: string, token: string) => from(ip, '/metrics', { headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 10; i++) expect((await metrics('203.0.113.50', `${wrong}${i}`)).status).toBe(401);
    const throttled = await metrics('203.0.113.50', `${wrong}x`);
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await throttled.json()) as { error: string }).error).toBe('rate_limited');
    expect((await metrics('203.0.113.50', ADMIN_TOKEN)).status).toBe(429);
    // Another IP with the right token is served.
    expect((await metrics('203.0.113.51', ADMIN_TOKEN)).status).toBe(200);
    const failures = await logLines('admin.auth_failed', 10);
    expect(failures.every((line) => line.ip === '203.0.113.50')).toBe(true);
    expect(host.output()).not.toContain(wrong);
    expect(host.output()).not.toContain(ADMIN_TOKEN);
  });
});

describe('5. security headers', () => {
  it('/docs and /docs/migration cannot be framed and are not sniffed, like the dashboard pages; JSON is not sniffed', async () => {
    for (const path of ['/docs', '/docs/migration', '/dashboard']) {
      const res = await from('203.0.113.60', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('content-security-policy'), path).toMatch(/default-src 'self'/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      // http BASE_URL: no HSTS.
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
    for (const path of ['/api/v1', '/api/v1/masters/1', '/healthz']) {
      expect((await from('203.0.113.60', path)).headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});

describe('5. under an https BASE_URL', () => {
  it('every answer carries HSTS, and the session cookie is Secure with the __Host- prefix, the only name read there', async () => {
    const origin = 'https://catalogue.example';
    const dataDir = mkdtempSync(join(tmpdir(), 'catalogue-https-'));
    const port = await freePort();
    const secure = await spawnNodeHost({
      PORT: String(port),
      BASE_URL: origin,
      CATALOGUE_STORAGE: 'memory',
      CATALOGUE_DATA_DIR: dataDir,
      ADMIN_TOKEN,
      SECRET_KEY,
      LOG_LEVEL: 'info',
    });
    try {
      const at = `http://127.0.0.1:${port}`;
      for (const path of ['/api/v1', '/docs', '/docs/migration', '/dashboard', '/api/v1/masters/1']) {
        expect((await fetch(`${at}${path}`)).headers.get('strict-transport-security'), path).toBe('max-age=31536000');
      }
      await issueCustomerOverHttp(at, ADMIN_TOKEN, { email: 'secure@example.com', tier: 'self_serve_49', environment: 'test' });
      const asked = await fetch(`${at}/api/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ email: 'secure@example.com' }),
      });
      expect(asked.status).toBe(202);
      // Without DATABASE_URL the log mail transport prints sign-in links whole (docs/decisions.md §3).
      let link: string | undefined;
      for (let i = 0; i < 200 && !link; i++) {
        link = secure.stdout().match(/https:\/\/catalogue\.example\/api\/dashboard\/session\?token=[A-Za-z0-9_-]+/)?.[0];
        if (!link) await new Promise((r) => setTimeout(r, 50));
      }
      const token = new URL(link as string).searchParams.get('token') as string;
      const signedIn = await fetch(`${at}/api/dashboard/session`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({ token }).toString(),
      });
      expect(signedIn.status).toBe(303);
      const setCookie = signedIn.headers.get('set-cookie') as string;
      expect(setCookie).toMatch(/^__Host-catalogue_session=[^;]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+; Secure$/);
      const value = (setCookie.split(';')[0] as string).split('=')[1] as string;
      expect((await fetch(`${at}/api/dashboard/keys`, { headers: { cookie: `__Host-catalogue_session=${value}` } })).status).toBe(200);
      // A cookie without the prefix (planted by a sibling subdomain or plain http) is not read.
      expect((await fetch(`${at}/api/dashboard/keys`, { headers: { cookie: `catalogue_session=${value}` } })).status).toBe(401);
    } finally {
      await secure.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('6. start-up refusals and e-mail addresses', () => {
  it('BASE_URL that is not an absolute http(s) URL, and ADMIN_TOKEN under 32 characters, stop the start with a clear message', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ BASE_URL: '/' }, /BASE_URL must be an absolute http\(s\) URL/],
      [{ BASE_URL: 'catalogue.example.com' }, /BASE_URL must be an absolute http\(s\) URL/],
      [{ ADMIN_TOKEN: 'a' }, /ADMIN_TOKEN must be at least 32 characters/],
      [{ ADMIN_TOKEN: 'x'.repeat(31) }, /ADMIN_TOKEN must be at least 32 characters/],
      [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY must be true, false, a number of proxies/],
    ];
    for (const [env, message] of cases) {
      const refused = await spawnNodeHost({ PORT: String(await freePort()), CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN, ...env });
      const code = await refused.stop();
      expect(refused.listening, JSON.stringify(env)).toBe(false);
      expect(code).not.toBe(0);
      expect(refused.output()).toMatch(message);
      expect(refused.output()).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
    }
  }, 120_000);

  it("accepts what RFC 5321 accepts in practice (o'brien@, plus, dots) at admin keys and sign-in, and refuses what it does not", async () => {
    for (const email of ["o'brien@example.com", 'first.last+tag@example.com']) {
      await customer(email);
      expect((await askForLink('203.0.113.70', email)).status).toBe(202);
      await linkFor(email);
    }
    for (const email of ['.dot@example.com', 'two..dots@example.com', 'no-at.example.com', 'a@b@example.com', 'space @example.com']) {
      const res = await askForLink('203.0.113.71', email);
      expect(res.status, email).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_body');
    }
  });
});

/**
 * TRUST_PROXY's forms on hosts of the in-memory demo, seen through their per-IP limit of 2 a
 * minute; on Node and on Bun, whose server reports the peer its own way (requestIP).
 */
describe.each(['node', 'bun'] as const)('TRUST_PROXY on a real %s host', (runtime) => {
  let hosts: RunningHost[] = [];
  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.stop()));
    hosts = [];
  });

  /** Statuses of GET /api/v1 for each X-Forwarded-For in turn, on a host under TRUST_PROXY=`trust`. */
  async function statuses(trust: string, chains: string[]): Promise<number[]> {
    const h = await startHost(runtime, { TRUST_PROXY: trust, PUBLIC_RATE_LIMIT_PER_MINUTE: '2' });
    hosts.push(h);
    const out: number[] = [];
    for (const chain of chains) out.push((await fetch(`${h.baseUrl}/api/v1`, { headers: { 'x-forwarded-for': chain } })).status);
    return out;
  }

  it.each<[string, string, string[], number[]]>([
    [
      'true: the rightmost entry is the client, whatever the client writes on the left',
      'true',
      ['1.1.1.1, 198.51.100.6', '2.2.2.2, 198.51.100.6', '3.3.3.3, 198.51.100.6', '198.51.100.7'],
      [200, 200, 429, 200],
    ],
    [
      '2: the second entry from the right',
      '2',
      ['1.1.1.1, 198.51.100.7, 10.0.0.1', '2.2.2.2, 198.51.100.7, 10.0.0.2', '3.3.3.3, 198.51.100.7, 10.0.0.3', '1.1.1.1, 198.51.100.8, 10.0.0.1'],
      [200, 200, 429, 200],
    ],
    [
      'a CIDR list: the rightmost address outside it',
      '127.0.0.1/8, ::1, 10.0.0.0/8',
      ['1.1.1.1, 198.51.100.9, 10.1.0.1', '2.2.2.2, 198.51.100.9', '198.51.100.9, 10.2.0.2, 10.3.0.3', '198.51.100.9, 198.51.100.10'],
      [200, 200, 429, 200],
    ],
    ['false: the peer, whatever the header says', 'false', ['198.51.100.11', '198.51.100.12', '198.51.100.13'], [200, 200, 429]],
  ])('%s', async (_what, trust, chains, expected) => {
    expect(await statuses(trust, chains)).toEqual(expected);
  });

  it('an unreadable TRUST_PROXY or a relative BASE_URL stops the start with its message', async () => {
    for (const [env, message] of [
      [{ TRUST_PROXY: '10.0.0.0/99' }, /TRUST_PROXY must be true, false, a number of proxies/],
      [{ BASE_URL: '/' }, /BASE_URL must be an absolute http\(s\) URL/],
    ] as const) {
      const refused = await spawnHostProcess(runtime, { PORT: String(await freePort()), CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN, ...env });
      expect(await refused.stop()).not.toBe(0);
      expect(refused.listening).toBe(false);
      expect(refused.output()).toMatch(message);
    }
  }, 60_000);
});
