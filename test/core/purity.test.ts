import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../packages/core/src');
const RUNTIME =
  /(from\s+['"]node:|require\(\s*['"]node:|import\(\s*['"]node:|\bDeno\.|\bBun\.|from\s+['"](fs|path|os|crypto|http|https|net|stream|zlib|child_process|worker_threads)['"])/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('packages/core stays runtime-agnostic', () => {
  it('imports no node:*, Deno or Bun anywhere in its sources', () => {
    const offenders = sources(root).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => RUNTIME.test(line))
        .map(([line, n]) => `${relative(root, file)}:${n}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the check itself catches a runtime import', () => {
    expect(RUNTIME.test("import { readFile } from 'node:fs';")).toBe(true);
    expect(RUNTIME.test('const x = Deno.env.get("A");')).toBe(true);
    expect(RUNTIME.test('Bun.serve({})')).toBe(true);
    expect(RUNTIME.test("import * as v from 'valibot';")).toBe(false);
  });
});
