import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../test-support/paths.js';

const bin = path.join(repoRoot, 'packages/importer/bin/catalogue.mjs');

/** Runs the real bin script in a child node, from a directory outside the repository. */
function catalogue(args: string[], env: Record<string, string | undefined> = {}) {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: os.tmpdir(),
    env: { ...inherited, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('bin/catalogue.mjs', () => {
  it('prints help and exits 0', () => {
    const result = catalogue(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: catalogue <command> [arguments]');
    expect(result.stdout).toContain('import discogs <file>...');
  });

  it('prints the version and exits 0', () => {
    const result = catalogue(['--version']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^catalogue \d+\.\d+\.\d+\n$/);
  });

  it('exits 2 on a usage error, with the message on stderr', () => {
    const result = catalogue(['import', 'spotify', 'x.jsonl']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('catalogue: import needs discogs, bandcamp or festivals');
    expect(result.stdout).toBe('');
  });

  it('without DATABASE_URL migrates the embedded default in CATALOGUE_DATA_DIR, and says so', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'catalogue-bin-'));
    try {
      const result = catalogue(['migrate'], { CATALOGUE_DATA_DIR: dataDir });
      expect(result.stderr).toContain(`catalogue: no DATABASE_URL: using the embedded database in ${path.join(dataDir, 'pg')}`);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('schema is up to date\n');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('exits 1 on a missing input file', () => {
    const result = catalogue(['import', 'festivals', 'no-such-feed.jsonl'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('catalogue: no-such-feed.jsonl: no such file');
  });
});
