/**
 * The ready ck_test_ key `npm start` prints. With durable storage it is issued once and kept in
 * the data dir (like the admin token), so a restart prints the same working key instead of
 * piling up demo customers; with memory storage it is new on every start.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Accounts, issueCustomerKey, sha256Hex } from '@catalogue/core';

export async function demoKey(accounts: Accounts, dataDir: string, durable: boolean): Promise<string> {
  const file = join(dataDir, 'demo-key');
  if (durable) {
    try {
      const kept = readFileSync(file, 'utf8').trim();
      const found = kept ? await accounts.findKeyByHash(sha256Hex(kept)) : null;
      if (found?.key.status === 'active') return kept;
    } catch {
      // no kept key yet: issue one below
    }
  }
  const issued = await issueCustomerKey(accounts, { email: 'demo@localhost', name: 'Demo', tier: 'self_serve_299', environment: 'test' }, new Date());
  if (durable) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${issued.plaintext}\n`, { mode: 0o600 });
  }
  return issued.plaintext;
}
