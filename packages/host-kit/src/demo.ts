/**
 * The demo a CLI host (Node, Bun, Deno) starts with when nothing is configured: secrets
 * generated once and kept in CATALOGUE_DATA_DIR, a ready ck_test_ key and the start banner.
 * Not for Lambda or Deno Deploy, whose file systems are read-only: there ADMIN_TOKEN and
 * SECRET_KEY come from the environment.
 *
 * A production database never gets a demo customer unasked (docs/decisions.md §1): the key is issued on
 * the embedded default and the memory demo, and with DATABASE_URL only when
 * CATALOGUE_DEMO_KEY=true. Secrets the operator set (ADMIN_TOKEN) and keys kept on a database
 * are never printed: logs are not a place for them (docs/decisions.md §3).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CustomersAndKeys, generateApiKey, issueCustomerKey, sha256Hex } from '@catalogue/core';
import type { HostEnv } from './env.js';

export function persistentSecret(dataDir: string, name: string, make: () => string = () => randomBytes(24).toString('base64url')): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch {
    // first start: generate below
  }
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

/**
 * Whether this start is a demo that keeps generated ADMIN_TOKEN and SECRET_KEY in the data dir
 * (used where the environment sets none): without DATABASE_URL (the embedded default or the
 * memory demo) or on CATALOGUE_STORAGE=memory, as for the demo key.
 */
export function demoSecretsWanted(env: Pick<HostEnv, 'databaseUrl' | 'storage'>): boolean {
  return env.databaseUrl === null || env.storage === 'memory';
}

/** ADMIN_TOKEN and SECRET_KEY of the demo, generated on first start. */
export function demoSecrets(dataDir: string): { adminToken: string; secretKey: string } {
  return {
    adminToken: persistentSecret(dataDir, 'admin-token'),
    secretKey: persistentSecret(dataDir, 'secret-key', () => randomBytes(32).toString('base64')),
  };
}

/** The demo customer; its address is a valid one (RFC 6761's `.localhost`), so the dashboard sign-in accepts it. */
export const DEMO_EMAIL = 'demo@catalogue.localhost';
const DEMO_CUSTOMER = { email: DEMO_EMAIL, name: 'Demo', tier: 'self_serve_299', environment: 'test' } as const;

/**
 * Whether this start issues the printed demo key: always on the embedded default and the
 * memory demo (nothing there is anyone's production), on a DATABASE_URL only when asked for.
 */
export function demoKeyWanted(env: Pick<HostEnv, 'databaseUrl' | 'storage' | 'demoKey'>): boolean {
  return env.databaseUrl === null || env.storage === 'memory' || env.demoKey;
}

/** A new demo key for storage that forgets it on restart (memory): nothing is kept. */
export async function issueDemoKey(accounts: CustomersAndKeys): Promise<string> {
  const demo = await issueCustomerKey(accounts, DEMO_CUSTOMER, new Date());
  return demo.plaintext;
}

/**
 * The demo key of durable storage, issued once and kept in the data dir (like the admin
 * token), so a restart prints the same working key instead of piling up demo customers. The
 * file is written (atomically) before the key is inserted: a data dir that cannot be written
 * fails the start before anything reaches the database, so a crash loop adds no customers.
 */
export async function keptDemoKey(accounts: CustomersAndKeys, dataDir: string): Promise<string> {
  const file = join(dataDir, 'demo-key');
  let kept = '';
  try {
    kept = readFileSync(file, 'utf8').trim();
  } catch {
    // no kept key yet
  }
  if (kept) {
    const found = await accounts.findKeyByHash(sha256Hex(kept));
    if (found?.key.status === 'active') return kept;
  }
  const plaintext = generateApiKey('test');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(`${file}.tmp`, `${plaintext}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  await issueCustomerKey(accounts, DEMO_CUSTOMER, new Date(), plaintext);
  return plaintext;
}

/** The demo key this start prints, or null: see demoKeyWanted; `durable` storage keeps it in the data dir. */
export async function demoKeyFor(env: HostEnv, accounts: CustomersAndKeys, durable: boolean): Promise<string | null> {
  if (!demoKeyWanted(env)) return null;
  return durable ? keptDemoKey(accounts, env.dataDir) : issueDemoKey(accounts);
}

export interface BannerInfo {
  /** Where the server listens (ServedHost.url). */
  url: string;
  /** BASE_URL (HostEnv.baseUrl): the address the banner shows, the one every link of the service uses. */
  baseUrl?: string;
  runtime: string;
  /** The service's admin token, or null when admin routes are off. */
  adminToken: string | null;
  /** True when the token is the demo's own, generated into the data dir: only then is it printed. */
  adminTokenGenerated: boolean;
  demoKey: string | null;
  storage: string;
  limiter: string;
}

/** What a CLI host prints at start: where the service is and, for the local demo, the admin token and a ready key. */
export function banner(info: BannerInfo): string {
  const admin = !info.adminToken
    ? '  admin routes: disabled (set ADMIN_TOKEN to enable)'
    : info.adminTokenGenerated
      ? `  admin token:  ${info.adminToken}`
      : '  admin routes: enabled (ADMIN_TOKEN from the environment)';
  // BASE_URL, not the bound address: the address the service's own links and mails carry (issue 30 item 13).
  // (A BASE_URL that is no absolute URL is not an address to print: the bound one then.)
  const url = info.baseUrl && URL.canParse(info.baseUrl) ? info.baseUrl : info.url;
  const lines = ['', `  catalogue (${info.runtime}) is listening on ${url}`];
  const boundPort = new URL(info.url).port;
  // Behind a proxy BASE_URL names another port: say which one this process listens on.
  if (new URL(url).port !== boundPort) lines.push(`  local port:   ${boundPort} (all interfaces)`);
  lines.push(`  storage: ${info.storage}   limits: ${info.limiter}`, '', admin);
  if (info.demoKey) {
    lines.push(
      `  demo key:     ${info.demoKey}   (ck_test_, self_serve_299)`,
      '',
      '  Try:',
      `    curl -s '${url}/api/v1/search?q=house&limit=3' -H 'X-API-Key: ${info.demoKey}'`,
      `    curl -s '${url}/api/v1/breakouts?window=90d&limit=5' -H 'X-API-Key: ${info.demoKey}'`,
      '',
      `  dashboard:    ${url}/dashboard   (sign in as ${DEMO_EMAIL}; without DATABASE_URL the link is printed here)`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
