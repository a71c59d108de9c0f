/**
 * The demo a CLI host (Node, Bun, Deno) starts with when nothing is configured: secrets
 * generated once and kept in CATALOGUE_DATA_DIR, a ready ck_test_ key and the start banner.
 * Not for Lambda or Deno Deploy, whose file systems are read-only: there ADMIN_TOKEN and
 * SECRET_KEY come from the environment.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Accounts, issueCustomerKey } from '@catalogue/core';

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

/** ADMIN_TOKEN and SECRET_KEY of the demo, generated on first start. */
export function demoSecrets(dataDir: string): { adminToken: string; secretKey: string } {
  return {
    adminToken: persistentSecret(dataDir, 'admin-token'),
    secretKey: persistentSecret(dataDir, 'secret-key', () => randomBytes(32).toString('base64')),
  };
}

export async function issueDemoKey(accounts: Accounts): Promise<string> {
  const demo = await issueCustomerKey(accounts, { email: 'demo@localhost', name: 'Demo', tier: 'self_serve_299', environment: 'test' }, new Date());
  return demo.plaintext;
}

/** What a CLI host prints at start: where the service is, the admin token and a ready demo key. */
export function banner(info: { url: string; runtime: string; adminToken: string | null; demoKey: string | null; storage: string; limiter: string }): string {
  const lines = [
    '',
    `  catalogue (${info.runtime}) is listening on ${info.url}`,
    `  storage: ${info.storage}   limits: ${info.limiter}`,
    '',
    info.adminToken ? `  admin token:  ${info.adminToken}` : '  admin routes: disabled (set ADMIN_TOKEN to enable)',
  ];
  if (info.demoKey) {
    lines.push(
      `  demo key:     ${info.demoKey}   (ck_test_, self_serve_299)`,
      '',
      '  Try:',
      `    curl -s '${info.url}/api/v1/search?q=house&limit=3' -H 'X-API-Key: ${info.demoKey}'`,
      `    curl -s '${info.url}/api/v1/breakouts?window=90d&limit=5' -H 'X-API-Key: ${info.demoKey}'`,
    );
  }
  lines.push('');
  return lines.join('\n');
}
