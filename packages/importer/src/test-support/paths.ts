import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Paths the importer's tests read; computed from this file so any cwd works. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const fixturesDir = path.join(repoRoot, 'packages/importer/test/fixtures');
/** The real 1,000-record Discogs samples (CC0), outside the repository for now. */
// The CC0 samples ship with the repository (data/discogs), so tests need nothing beside it.
export const discogsSamplesDir = path.resolve(repoRoot, 'data/discogs');

export function discogsSample(kind: 'artists' | 'labels' | 'masters' | 'releases'): string {
  return path.join(discogsSamplesDir, `discogs_20200806_${kind}.xml.gz`);
}
