/**
 * Every TypeScript block of README.md runs exactly as written (issue 30 item 10). A block is
 * marked with the info string `ts runnable`; every `ts` block must be marked, so a new snippet
 * cannot slip in untested. Each runs as README says a script in this repository runs (`node
 * --conditions=catalogue-source --import tsx file.ts`), from a file inside the repository so that
 * `@catalogue/*` resolve as they do for a reader, against the in-memory demo served by the Node
 * host on a loopback port (CATALOGUE_URL, and a key issued by the admin route in CATALOGUE_KEY).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServiceFromEnv } from '@catalogue/host-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeServer, listen, type RunningServer } from '../../hosts/node/src/serve.js';
import { freePort, ROOT } from '../hosts/process-host.js';

const run = promisify(execFile);
const ADMIN = 'readme-snippets-admin-token-0123456789';

/** The fenced blocks of a Markdown text: info string and body. */
function fencedBlocks(markdown: string): Array<{ info: string; body: string; line: number }> {
  const blocks: Array<{ info: string; body: string; line: number }> = [];
  const fence = /^```([^\n`]*)\n([\s\S]*?)^```$/gm;
  for (const m of markdown.matchAll(fence)) {
    blocks.push({ info: (m[1] ?? '').trim(), body: m[2] ?? '', line: markdown.slice(0, m.index).split('\n').length });
  }
  return blocks;
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = fencedBlocks(readme);
const runnable = blocks.filter((b) => b.info.split(/\s+/).includes('runnable'));

let running: RunningServer;
let baseUrl: string;
let key: string;
let scratch: string;

beforeAll(async () => {
  const { service } = await createServiceFromEnv({ CATALOGUE_STORAGE: 'memory', ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'error' });
  const port = await freePort();
  running = await listen(createNodeServer(service, { trustProxy: false }), port, '127.0.0.1', 1000);
  baseUrl = `http://127.0.0.1:${port}`;
  const issued = await fetch(`${baseUrl}/api/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'readme@example.com', tier: 'self_serve_49', environment: 'test' }),
  });
  key = ((await issued.json()) as { key: string }).key;
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  scratch = mkdtempSync(join(ROOT, 'test-artifacts', 'readme-'));
}, 60_000);

afterAll(async () => {
  await running?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('README snippets', () => {
  it('marks every TypeScript block runnable, and has some', () => {
    const unmarked = blocks.filter((b) => /^(ts|typescript)\b/.test(b.info) && !b.info.includes('runnable'));
    expect(unmarked.map((b) => `README.md:${b.line}`)).toEqual([]);
    expect(runnable.length).toBeGreaterThanOrEqual(2);
  });

  for (const [i, block] of runnable.entries()) {
    it(`README.md:${block.line} runs as written`, async () => {
      const file = join(scratch, `snippet-${i}.ts`);
      writeFileSync(file, block.body);
      const env: Record<string, string | undefined> = { ...process.env, CATALOGUE_URL: baseUrl, CATALOGUE_KEY: key, NODE_OPTIONS: undefined };
      delete env.BASE_URL;
      const { stdout } = await run(process.execPath, ['--conditions=catalogue-source', '--import', 'tsx', file], { cwd: ROOT, env, timeout: 60_000 });
      expect(stdout.trim().length).toBeGreaterThan(0);
    }, 70_000);
  }
});
