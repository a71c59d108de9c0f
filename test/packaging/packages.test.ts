/**
 * Packaging: `npm run build` once, then every publishable package passes publint and
 * @arethetypeswrong/cli; the Lambda bundle (dist/: handler.mjs and its chunks) is
 * self-contained; core imports in Deno through `npm:` specifiers.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'node_modules/.bin');

interface Manifest {
  name: string;
  private?: boolean;
}

const PUBLISHABLE = readdirSync(join(ROOT, 'packages'))
  .map((dir) => ({ dir: join(ROOT, 'packages', dir), manifest: JSON.parse(readFileSync(join(ROOT, 'packages', dir, 'package.json'), 'utf8')) as Manifest }))
  .filter(({ manifest }) => !manifest.private);

async function exec(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  try {
    // Vitest sets BASE_URL=/ in its own environment; a host refuses a relative BASE_URL at start.
    const { BASE_URL: _vitestBaseUrl, ...env } = process.env;
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 32 * 1024 * 1024, env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('packaging', () => {
  beforeAll(async () => {
    const build = await exec('npm', ['run', 'build'], ROOT);
    if (build.code !== 0) throw new Error(`npm run build failed:\n${build.output.slice(-4000)}`);
  }, 600_000);

  it('there are packages to check', () => {
    expect(PUBLISHABLE.map((p) => p.manifest.name)).toContain('@catalogue/core');
  });

  for (const { dir, manifest } of PUBLISHABLE) {
    it(`${manifest.name} passes publint`, async () => {
      const result = await exec(join(BIN, 'publint'), ['--strict'], dir);
      expect(result.code, result.output).toBe(0);
      expect(result.output).not.toMatch(/^(Errors|Warnings):/m);
    }, 120_000);

    // node10 resolution predates `exports` and cannot see subpath entries: the packages target
    // Node ≥ 20 and bundlers, so the node16 profile (node16 CJS/ESM + bundler) is the contract.
    it(`${manifest.name} passes @arethetypeswrong/cli`, async () => {
      const result = await exec(join(BIN, 'attw'), ['--pack', '.', '--profile', 'node16', '--format', 'ascii'], dir);
      expect(result.code, result.output).toBe(0);
    }, 180_000);
  }

  it('the Lambda bundle is a self-contained ESM folder that answers an event', async () => {
    const alone = mkdtempSync(join(tmpdir(), 'catalogue-lambda-'));
    try {
      cpSync(join(ROOT, 'hosts/lambda/dist'), alone, { recursive: true });
      const script = `
        const { handler } = await import('./handler.mjs');
        const event = { version: '2.0', routeKey: '$default', rawPath: '/api/v1/masters/1', rawQueryString: '', headers: { host: 'x.lambda-url.us-east-1.on.aws' },
          requestContext: { domainName: 'x.lambda-url.us-east-1.on.aws', requestId: 'r', http: { method: 'GET', path: '/api/v1/masters/1', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 't' } }, isBase64Encoded: false };
        const result = await handler(event);
        console.log(JSON.stringify({ status: result.statusCode, body: JSON.parse(result.body) }));`;
      // No node_modules anywhere above the temp dir: every import must be inside the bundle.
      const result = await exec(process.execPath, ['--input-type=module', '-e', script], alone);
      expect(result.code, result.output).toBe(0);
      expect(JSON.parse(result.output.trim().split('\n').at(-1) as string)).toEqual({
        status: 401,
        body: expect.objectContaining({ error: 'missing_api_key' }),
      });
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  }, 60_000);

  it('the Lambda bundle carries no importer but the demo generator: no XML parser, feeds or CLI', () => {
    const files = readdirSync(join(ROOT, 'hosts/lambda/dist'), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    const text = files.map((f) => readFileSync(join(f.parentPath, f.name), 'utf8')).join('\n');
    expect(text).not.toContain('node_modules/saxes/');
    expect(text).not.toContain('packages/importer/src/discogs/');
    expect(text).not.toContain('packages/importer/src/cli/');
    expect(text).toContain('packages/importer/src/generate/');
  });

  it('core is importable and type-checks in Deno through npm: specifiers', async () => {
    const check = await exec(join(BIN, 'deno'), ['check', 'test/packaging/deno-npm-import.js'], ROOT);
    expect(check.code, check.output).toBe(0);
    const result = await exec(join(BIN, 'deno'), ['run', '--allow-read', '--allow-env', 'test/packaging/deno-npm-import.js'], ROOT);
    expect(result.code, result.output).toBe(0);
    expect(JSON.parse(result.output.trim().split('\n').at(-1) as string)).toEqual({
      knowsTiers: true,
      status: 404,
      body: expect.objectContaining({ error: 'master_not_found', master_id: 1 }),
    });
  }, 120_000);

  it('deno check passes on the Deno host and its Deploy entry', async () => {
    const result = await exec(join(BIN, 'deno'), ['check', 'hosts/deno/src/main.ts', 'hosts/deno/src/deploy.ts'], ROOT);
    expect(result.code, result.output).toBe(0);
  }, 300_000);
});
