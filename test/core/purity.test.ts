/**
 * The layering, checked on the sources themselves: core names no runtime; no source file takes
 * part in an import cycle (type-only imports count: a cycle of types is a cycle of meaning);
 * the pure layers of core import nothing above them; workspace packages depend on each other
 * without a cycle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const CORE = join(ROOT, 'packages/core/src');
const RUNTIME =
  /(from\s+['"]node:|require\(\s*['"]node:|import\(\s*['"]node:|\bDeno\.|\bBun\.|from\s+['"](fs|path|os|crypto|http|https|net|stream|zlib|child_process|worker_threads)['"])/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every source the repository ships: packages, hosts (Deno's entries included). */
const SHIPPED = [
  ...readdirSync(join(ROOT, 'packages')).map((p) => join(ROOT, 'packages', p, 'src')),
  ...readdirSync(join(ROOT, 'hosts')).map((h) => join(ROOT, 'hosts', h)),
]
  .filter((dir) => existsSync(dir))
  .flatMap(sources);

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm;

/** The files a source imports by relative path (`./x.js` → `./x.ts`, a folder → its index.ts). */
function relativeImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = (match[1] ?? match[2] ?? match[3]) as string;
    const base = resolve(dirname(file), spec);
    const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')];
    const target = candidates.find((c) => c.endsWith('.ts') && existsSync(c));
    if (target) found.push(target);
  }
  return found;
}

/** The cycles of a graph (each strongly connected component with more than one node, or a self-import), as lists of nodes. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, relativeImports(file, readFileSync(file, 'utf8'))]));
}

/**
 * Core's layers: a file under `from` may not import a file under any of `not` (paths relative to
 * packages/core/src). memory/ is for tests and users only; catalogue/ holds the pure building
 * blocks every store shares; the web pages are outside the route tree; ports are interfaces.
 */
const CORE_RULES: Array<{ from: string; not: string[]; why: string }> = [
  { from: '', not: ['memory/'], why: 'only tests and users import the memory ports' },
  { from: 'catalogue/', not: ['routes/', 'web/', 'http/', 'gate/', 'billing/', 'service.ts'], why: 'catalogue/ is pure building blocks shared by every store' },
  { from: 'routes/', not: ['web/'], why: 'the web pages contribute routes; the route tree does not know them' },
  { from: 'ports/', not: ['routes/', 'web/', 'http/', 'gate/', 'billing/', 'catalogue/', 'tiers.ts', 'service.ts'], why: 'ports are interfaces only' },
  {
    from: 'validation/',
    not: ['http/', 'gate/', 'billing/', 'routes/', 'web/', 'service.ts'],
    why: 'validation/ is the ground floor: its refusals are ApiErrors of errors/',
  },
  {
    from: 'errors/',
    not: ['http/', 'gate/', 'billing/', 'routes/', 'web/', 'catalogue/', 'ports/', 'validation/', 'schemas/', 'config.ts', 'tiers.ts', 'service.ts', 'openapi'],
    why: 'the error table is the ground floor: it imports nothing of core',
  },
];

function layeringOffences(graph: Map<string, string[]>): string[] {
  const offences: string[] = [];
  for (const [file, targets] of graph) {
    const from = relative(CORE, file);
    if (from.startsWith('..')) continue;
    for (const target of targets) {
      const to = relative(CORE, target);
      for (const rule of CORE_RULES) {
        if (!from.startsWith(rule.from) || from.startsWith('memory/')) continue;
        if (rule.not.some((layer) => to.startsWith(layer))) offences.push(`${from} → ${to}: ${rule.why}`);
      }
    }
  }
  return offences;
}

describe('packages/core stays runtime-agnostic', () => {
  it('imports no node:*, Deno or Bun anywhere in its sources', () => {
    const offenders = sources(CORE).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => RUNTIME.test(line))
        .map(([line, n]) => `${relative(CORE, file)}:${n}: ${line.trim()}`),
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

describe('layering', () => {
  const graph = importGraph(SHIPPED);

  it('reads the imports of every shipped source', () => {
    expect(graph.size).toBeGreaterThan(250);
    expect(graph.get(join(CORE, 'service.ts'))).toContain(join(CORE, 'routes/index.ts'));
  });

  it('no source takes part in an import cycle', () => {
    expect(cyclesOf(graph).map((cycle) => cycle.map((file) => relative(ROOT, file)))).toEqual([]);
  });

  it('core: memory/ is imported by nothing in core, catalogue/, ports/, validation/ and errors/ by nothing above them, routes/ never imports web/', () => {
    expect(layeringOffences(graph)).toEqual([]);
  });

  it('workspace packages depend on each other without a cycle', () => {
    const manifests = [...readdirSync(join(ROOT, 'packages')).map((p) => `packages/${p}`), ...readdirSync(join(ROOT, 'hosts')).map((h) => `hosts/${h}`)]
      .filter((dir) => existsSync(join(ROOT, dir, 'package.json')))
      .map((dir) => JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | string>);
    const names = new Set(manifests.map((m) => m.name as string));
    const deps = new Map(
      manifests.map((m) => [
        m.name as string,
        Object.keys({ ...(m.dependencies as object), ...(m.peerDependencies as object), ...(m.devDependencies as object) }).filter((d) => names.has(d)),
      ]),
    );
    expect(cyclesOf(deps)).toEqual([]);
  });

  it('the checks themselves catch a cycle, a self-import and a layering offence', () => {
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['a']]]))).toEqual([['a']]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
    const routes = join(CORE, 'routes/catalogue/search.ts');
    const catalogue = join(CORE, 'catalogue/search.ts');
    expect(layeringOffences(new Map([[routes, [join(CORE, 'memory/catalogue.ts'), join(CORE, 'web/index.ts')]]]))).toHaveLength(2);
    expect(layeringOffences(new Map([[catalogue, [join(CORE, 'memory/catalogue-index.ts')]]]))).toHaveLength(1);
    expect(layeringOffences(new Map([[join(CORE, 'ports/accounts.ts'), [join(CORE, 'tiers.ts')]]]))).toHaveLength(1);
    expect(layeringOffences(new Map([[join(CORE, 'validation/query.ts'), [join(CORE, 'http/route.ts')]]]))).toHaveLength(1);
    expect(layeringOffences(new Map([[join(CORE, 'errors/api-error.ts'), [join(CORE, 'ports/index.ts')]]]))).toHaveLength(1);
    expect(relativeImports(routes, "import type { X } from '../../ports/index.js';\nimport { y } from '../shared/keys.js';")).toEqual([
      join(CORE, 'ports/index.ts'),
      join(CORE, 'routes/shared/keys.ts'),
    ]);
  });
});

/**
 * The files that hold all of the Accounts port (issue 38 step 3): the port itself, the wiring of
 * a service and of each adapter. Every other consumer names the slices it uses.
 */
const WHOLE_ACCOUNTS = [
  'packages/core/src/ports/index.ts',
  'packages/core/src/service.ts',
  'packages/core/src/http/request-event.ts',
  'packages/core/src/gate/auth-invalidation.ts',
  'packages/core/src/memory/accounts.ts',
  'packages/postgres/src/accounts.ts',
  'packages/host-kit/src/service-from-env.ts',
];

/** Whether a source imports the whole `Accounts` type (not a slice of it). */
const NAMES_ACCOUNTS = /import\s+(?:type\s+)?\{[^}]*\b(?:type\s+)?Accounts\b[^}]*\}/;

describe('the Accounts port by concern', () => {
  it('is named whole only by the wiring; every other consumer names its slices', () => {
    const naming = SHIPPED.filter((file) => NAMES_ACCOUNTS.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));
    expect(naming.sort()).toEqual([...WHOLE_ACCOUNTS].sort());
  });

  it('the check itself sees a whole import and passes a slice', () => {
    expect(NAMES_ACCOUNTS.test("import type { Accounts, Logger } from '@catalogue/core';")).toBe(true);
    expect(NAMES_ACCOUNTS.test("import { type Accounts, createService } from '@catalogue/core';")).toBe(true);
    expect(NAMES_ACCOUNTS.test("import type { CustomersAndKeys, MemoryAccounts } from '@catalogue/core';")).toBe(false);
  });
});
