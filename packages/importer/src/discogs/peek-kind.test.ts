/** peekDumpKind (peek-kind.ts): a dump's kind from its root element, plain or gzipped. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { discogsSample, fixturesDir } from '../test-support/paths.js';
import { peekDumpKind } from './peek-kind.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'catalogue-peek-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const file = (name: string, content: string | Buffer) => {
  const at = path.join(scratch, name);
  writeFileSync(at, content);
  return at;
};

describe('peekDumpKind', () => {
  it.each(['artists', 'labels', 'masters', 'releases'] as const)('reads the %s sample’s kind', async (kind) => {
    expect(await peekDumpKind(discogsSample(kind))).toBe(kind);
  });

  it('reads a gzipped dump after its declaration and a comment', async () => {
    expect(await peekDumpKind(file('m.xml.gz', gzipSync('<?xml version="1.0"?>\n<!-- dump -->\n<masters>\n<master id="1"></master></masters>')))).toBe(
      'masters',
    );
  });

  it('is null for another root, no root in the first 64 KB, bytes that are not gzip and a missing file; a truncated gzip still names its kind', async () => {
    expect(await peekDumpKind(file('other.xml', '<catalogue><artist/></catalogue>'))).toBeNull();
    expect(await peekDumpKind(file('blank.xml', ' '.repeat(100_000)))).toBeNull();
    expect(await peekDumpKind(path.join(fixturesDir, 'discogs/bad', 'truncated-masters.xml.gz'))).toBe('masters');
    expect(await peekDumpKind(file('junk.xml.gz', Buffer.from('not gzip at all')))).toBeNull();
    expect(await peekDumpKind(path.join(scratch, 'missing.xml'))).toBeNull();
  });
});
