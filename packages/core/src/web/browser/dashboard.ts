/**
 * The dashboard's script, run by the browser on GET /dashboard: plain DOM + fetch, no framework.
 * Same-origin fetches carry the SameSite=Strict cookie and the browser's Origin header, which
 * the API checks. It is type-checked and linted with the rest of the repository, and
 * scripts/embed-browser-scripts.ts compiles it into dashboard-script.generated.ts, which the
 * page embeds with its hash in the Content-Security-Policy. Nothing on the server imports it.
 */

interface KeyView {
  id: string;
  display_prefix: string;
  environment: string;
  status: string;
  created_at: string;
}

interface KeysAnswer {
  customer: { email: string; tier: string; plan: { name: string; price_usd_per_month: number }; status: string };
  keys: KeyView[];
  revealed: Array<{ id: string; key: string }>;
}

interface RotateAnswer {
  key: string;
  display_prefix: string;
}

interface CreateAnswer extends KeyView {
  key: string;
}

interface ErrorAnswer {
  message?: string;
}

/** The keys as last loaded: revoke warns when it would leave no active key. */
let currentKeys: KeyView[] = [];

interface UsageAnswer {
  contract: boolean;
  quota_per_month: number;
  overage: string;
  month: string;
  months: Array<{ month: string; live: number; test: number }>;
  /** This month day by day, to today. */
  days: Array<{ date: string; live: number; test: number }>;
}

const $ = (id: string): HTMLElement => document.getElementById(id) as HTMLElement;
const show = (id: string, on: boolean) => {
  $(id).hidden = !on;
};
const say = (text: string) => {
  $('status').textContent = text;
};

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
  const init: RequestInit & { headers: Record<string, string> } = { method, credentials: 'same-origin', headers: {} };
  if (body) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, data: data as T };
}

function reveal(key: string, label: string): void {
  $('reveal-label').textContent = label;
  $('reveal-key').textContent = key;
  show('reveal', true);
  $('reveal').focus();
}

function cell(row: HTMLTableRowElement, text: string, tag?: string): HTMLTableCellElement {
  const td = document.createElement('td');
  if (tag) {
    const el = document.createElement(tag);
    el.textContent = text;
    td.appendChild(el);
  } else td.textContent = text;
  row.appendChild(td);
  return td;
}

function button(label: string, className: string, aria: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.className = className;
  b.setAttribute('aria-label', aria);
  b.addEventListener('click', onClick);
  return b;
}

function renderKeys(keys: KeyView[]): void {
  const body = $('keys-body');
  body.replaceChildren();
  for (const k of keys) {
    const row = document.createElement('tr');
    row.dataset.keyId = k.id;
    cell(row, `${k.display_prefix}…`, 'code');
    cell(row, k.environment);
    cell(row, k.status);
    cell(row, k.created_at.slice(0, 10));
    const actions = cell(row, '');
    if (k.status === 'active') {
      actions.appendChild(button('Rotate', 'secondary', `Rotate key ${k.display_prefix}`, () => void rotate(k)));
      actions.appendChild(document.createTextNode(' '));
      actions.appendChild(button('Revoke', 'danger', `Revoke key ${k.display_prefix}`, () => void revoke(k)));
    }
    body.appendChild(row);
  }
}

async function loadKeys(): Promise<boolean> {
  const { status, data } = await api<KeysAnswer>('GET', '/api/dashboard/keys');
  if (status === 401) {
    show('signin', true);
    show('account', false);
    $('email').focus();
    return false;
  }
  show('signin', false);
  show('account', true);
  const { email, plan, status: accountStatus } = data.customer;
  $('who').textContent = `${email} · ${plan.name} plan, $${count(plan.price_usd_per_month)} a month · account ${accountStatus}`;
  currentKeys = data.keys;
  renderKeys(data.keys);
  const [first] = data.revealed;
  if (first) reveal(first.key, 'Your new key, shown once. Copy it now:');
  return true;
}

async function rotate(k: KeyView): Promise<void> {
  if (!confirm(`Rotate ${k.display_prefix}? The current key stops working at once.`)) return;
  const { status, data } = await api<RotateAnswer>('POST', `/api/dashboard/keys/${encodeURIComponent(k.id)}`);
  if (status !== 201) {
    say(`Rotation failed (${status}).`);
    return;
  }
  await loadKeys();
  reveal(data.key, `Key ${data.display_prefix} replaces ${k.display_prefix}. It is shown once. Copy it now:`);
}

async function revoke(k: KeyView): Promise<void> {
  const last = currentKeys.every((other) => other.id === k.id || other.status !== 'active');
  const warning = last
    ? `${k.display_prefix} is your last active key: revoking it stops every call to the API until you create a new key below. Revoke it anyway?`
    : `Revoke ${k.display_prefix}? It stops working at once and cannot be restored.`;
  if (!confirm(warning)) return;
  const { status } = await api<null>('DELETE', `/api/dashboard/keys/${encodeURIComponent(k.id)}`);
  // The list first, then the message: when the status says "revoked", the table already agrees.
  await loadKeys();
  say(status === 204 ? `Key ${k.display_prefix} revoked.` : `Revocation failed (${status}).`);
}

const count = (n: number) => n.toLocaleString('en-US');

interface Bar {
  label: string;
  live: number;
  test: number;
}

/**
 * The axis top: the data's largest bar rounded up to 5, 10, 20, 50, 100… so 25 calls draw on a
 * 0–50 axis, not against a 250,000 quota; each of those splits into five whole-number ticks.
 */
function axisTop(largest: number): number {
  if (largest <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(largest));
  return ([1, 2, 5, 10].find((step) => step * power >= largest) ?? 10) * power;
}

/** Stacked live/test bars with a labelled y axis (calls) and x axis; a dashed quota line when the quota is on the scale. */
function chartSvg(bars: Bar[], title: string, xTitle: string, quota: number | null, labelEvery: number): string {
  const left = 64;
  const bottom = 48;
  const w = 560;
  const h = 220;
  const plot = w - left - 8;
  const top = axisTop(Math.max(...bars.map((b) => b.live + b.test)));
  const y = (v: number) => 12 + (h - 12) * (1 - v / top);
  const slot = plot / bars.length;
  const parts = [
    `<svg viewBox="0 0 ${w} ${h + bottom}" width="100%" role="img" aria-labelledby="chart-title" id="usage-chart">`,
    `<title id="chart-title">${title}</title>`,
  ];
  for (let i = 0; i <= 5; i++) {
    const value = (top / 5) * i;
    parts.push(`<line x1="${left}" x2="${w - 8}" y1="${y(value)}" y2="${y(value)}" stroke="#ccc"></line>`);
    parts.push(`<text x="${left - 6}" y="${y(value) + 4}" text-anchor="end" font-size="11" fill="#111">${count(value)}</text>`);
  }
  parts.push(`<text transform="translate(14 ${h / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="#111">Calls</text>`);
  bars.forEach((b, i) => {
    const x = left + i * slot + slot * 0.15;
    const width = Math.max(1, slot * 0.7);
    parts.push(
      `<rect x="${x}" y="${y(b.live)}" width="${width}" height="${y(0) - y(b.live)}" fill="#0b3d91"><title>${b.label}: ${count(b.live)} live</title></rect>`,
    );
    parts.push(
      `<rect x="${x}" y="${y(b.live + b.test)}" width="${width}" height="${y(b.live) - y(b.live + b.test)}" fill="#7aa6e8"><title>${b.label}: ${count(b.test)} test</title></rect>`,
    );
    if (i % labelEvery === 0 || i === bars.length - 1) {
      parts.push(`<text x="${left + i * slot + slot / 2}" y="${h + 16}" text-anchor="middle" font-size="11" fill="#111">${b.label}</text>`);
    }
  });
  parts.push(`<line x1="${left}" x2="${w - 8}" y1="${y(0)}" y2="${y(0)}" stroke="#111"></line>`);
  if (quota !== null && quota <= top) {
    parts.push(`<line x1="${left}" x2="${w - 8}" y1="${y(quota)}" y2="${y(quota)}" stroke="#a4161a" stroke-width="2" stroke-dasharray="6 4"></line>`);
  }
  parts.push(`<text x="${left + plot / 2}" y="${h + 38}" text-anchor="middle" font-size="12" fill="#111">${xTitle}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

let usageView: 'daily' | 'monthly' = 'daily';
let lastUsage: UsageAnswer | null = null;

function renderChart(u: UsageAnswer): void {
  const monthName = new Date(`${u.month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const daily = usageView === 'daily';
  const bars = daily
    ? u.days.map((d) => ({ label: String(Number(d.date.slice(8, 10))), live: d.live, test: d.test }))
    : u.months.map((m) => ({ label: m.month, live: m.live, test: m.test }));
  const title = daily ? `Calls per day in ${monthName}, live and test` : 'Calls per month, live and test, last six months';
  const quotaNote =
    daily || u.quota_per_month <= axisTop(Math.max(...bars.map((b) => b.live + b.test)))
      ? ''
      : ` The quota (${count(u.quota_per_month)} a month) is above this scale.`;
  $('chart').innerHTML = chartSvg(bars, title, daily ? `Day of ${monthName} (UTC)` : 'Month (UTC)', daily ? null : u.quota_per_month, daily ? 5 : 1);
  $('chart-note').textContent = `Dark: live calls; light: test calls.${quotaNote}`;
  for (const view of ['daily', 'monthly'] as const) $(`view-${view}`).setAttribute('aria-pressed', String(view === usageView));
}

function renderUsage(u: UsageAnswer): void {
  lastUsage = u;
  renderChart(u);
  const body = $('usage-body');
  body.replaceChildren();
  for (const m of u.months) {
    const row = document.createElement('tr');
    cell(row, m.month);
    cell(row, count(m.live));
    cell(row, count(m.test));
    body.appendChild(row);
  }
  const current = u.months[u.months.length - 1];
  // The quota counts each environment on its own (docs/decisions.md §2).
  $('usage-summary').textContent =
    `${count(current?.live ?? 0)} of ${count(u.quota_per_month)} calls used in ${u.month} with live keys; ` +
    `test keys: ${count(current?.test ?? 0)} of ${count(u.quota_per_month)}.`;
  show('settings', !u.contract);
  for (const input of document.querySelectorAll<HTMLInputElement>('input[name=overage]')) input.checked = input.value === u.overage;
}

for (const view of ['daily', 'monthly'] as const) {
  $(`view-${view}`).addEventListener('click', () => {
    usageView = view;
    if (lastUsage) renderChart(lastUsage);
  });
}

async function loadUsage(): Promise<void> {
  const { status, data } = await api<UsageAnswer>('GET', '/api/dashboard/usage');
  if (status === 200) renderUsage(data);
}

$('signin-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  await api('POST', '/api/dashboard/login', { email: ($('email') as HTMLInputElement).value });
  say('If this address has a subscription, a sign-in link is on its way. It works once, for 15 minutes.');
});

$('create-key-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const environment = document.querySelector<HTMLInputElement>('input[name=environment]:checked')?.value ?? 'live';
  const { status, data } = await api<CreateAnswer & ErrorAnswer>('POST', '/api/dashboard/keys', { environment });
  if (status !== 201) {
    say(data?.message ?? `Creating the key failed (${status}).`);
    return;
  }
  await loadKeys();
  reveal(data.key, `Your new ${environment} key ${data.display_prefix}, shown once. Copy it now:`);
});

$('settings-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const chosen = document.querySelector<HTMLInputElement>('input[name=overage]:checked');
  if (!chosen) return;
  const { status } = await api('POST', '/api/dashboard/settings', { overage: chosen.value });
  say(status === 200 ? `Saved: past the quota, calls are ${chosen.value === 'bill' ? 'billed.' : 'refused with 429.'}` : `Saving failed (${status}).`);
});

$('signout').addEventListener('click', async () => {
  await api('POST', '/api/dashboard/logout');
  show('reveal', false);
  await loadKeys();
});

$('reveal-dismiss').addEventListener('click', () => {
  show('reveal', false);
  $('keys-heading').focus();
});

void loadKeys().then(async (signedIn) => {
  if (signedIn) await loadUsage();
});

export {};
