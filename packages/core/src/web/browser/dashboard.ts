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
  customer: { email: string; tier: string; status: string };
  keys: KeyView[];
  revealed: Array<{ id: string; key: string }>;
}

interface RotateAnswer {
  key: string;
  display_prefix: string;
}

interface UsageAnswer {
  contract: boolean;
  quota_per_month: number;
  overage: string;
  month: string;
  months: Array<{ month: string; live: number; test: number }>;
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
  $('who').textContent = `${data.customer.email} · ${data.customer.tier} · ${data.customer.status}`;
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
  if (!confirm(`Revoke ${k.display_prefix}? It stops working at once and cannot be restored.`)) return;
  const { status } = await api<null>('DELETE', `/api/dashboard/keys/${encodeURIComponent(k.id)}`);
  // The list first, then the message: when the status says "revoked", the table already agrees.
  await loadKeys();
  say(status === 204 ? `Key ${k.display_prefix} revoked.` : `Revocation failed (${status}).`);
}

const count = (n: number) => n.toLocaleString('en-US');

function renderUsage(u: UsageAnswer): void {
  const max = Math.max(u.quota_per_month, ...u.months.map((m) => m.live)) * 1.1;
  const w = 480;
  const h = 200;
  const bar = w / u.months.length;
  const y = (v: number) => h - (v / max) * h;
  const svg = [
    `<svg viewBox="0 0 ${w} ${h + 24}" width="100%" role="img" aria-labelledby="chart-title">`,
    `<title id="chart-title">Live calls per month against the monthly quota of ${count(u.quota_per_month)}</title>`,
  ];
  u.months.forEach((m, i) => {
    const over = m.live > u.quota_per_month;
    svg.push(`<rect x="${i * bar + 8}" y="${y(m.live)}" width="${bar - 16}" height="${h - y(m.live)}" fill="${over ? '#a4161a' : '#0b3d91'}"></rect>`);
    svg.push(`<text x="${i * bar + bar / 2}" y="${h + 18}" text-anchor="middle" font-size="12" fill="#111">${m.month}</text>`);
  });
  svg.push(`<line x1="0" x2="${w}" y1="${y(u.quota_per_month)}" y2="${y(u.quota_per_month)}" stroke="#111" stroke-width="2" stroke-dasharray="6 4"></line>`);
  svg.push('</svg>');
  $('chart').innerHTML = svg.join('');
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
  $('usage-summary').textContent = `${count(current?.live ?? 0)} of ${count(u.quota_per_month)} calls used in ${u.month}.`;
  show('settings', !u.contract);
  for (const input of document.querySelectorAll<HTMLInputElement>('input[name=overage]')) input.checked = input.value === u.overage;
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
