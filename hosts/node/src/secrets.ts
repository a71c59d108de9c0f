/** Secrets of the embedded default: generated once, kept in the data dir, reused on restart. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
