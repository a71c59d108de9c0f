/**
 * Repository hygiene (issue 16 item 10): a LICENSE whose licence is the one every package
 * declares, a CHANGELOG, and `engines` in every package.json so npm warns on an old Node.
 * Cheap file reads only: the build-and-pack checks live in test/packaging/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

interface Manifest {
  name: string;
  private?: boolean;
  license?: string;
  engines?: { node?: string };
}

const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest & { workspaces: string[] };

/** Every workspace folder, the globs (`examples/*`) expanded one level as npm does. */
function workspaceDirs(): string[] {
  return rootManifest.workspaces.flatMap((entry) => {
    if (!entry.endsWith('/*')) return [entry];
    const parent = entry.slice(0, -2);
    return readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(ROOT, parent, d.name, 'package.json')))
      .map((d) => `${parent}/${d.name}`);
  });
}

const manifests = ['.', ...workspaceDirs()].map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest }));

describe('repository manifests', () => {
  it('finds the workspaces', () => {
    expect(manifests.map((m) => m.manifest.name)).toEqual(expect.arrayContaining(['@catalogue/core', '@catalogue/importer', '@catalogue/host-node']));
  });

  for (const { dir, manifest } of manifests) {
    it(`${manifest.name} declares the Node it needs`, () => {
      expect(manifest.engines?.node, dir).toBe(rootManifest.engines?.node);
    });
  }

  it('every published package is MIT, and LICENSE is the MIT licence', () => {
    const published = manifests.filter((m) => !m.manifest.private);
    expect(published.length).toBeGreaterThan(0);
    for (const { manifest } of published) expect(manifest.license, manifest.name).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
  });

  it('has a changelog with an entry for the current version', () => {
    const version = manifests.find((m) => m.manifest.name === '@catalogue/core')?.manifest as Manifest & { version: string };
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toContain(`## ${version.version}`);
  });
});
