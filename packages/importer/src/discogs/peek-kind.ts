/**
 * The kind of a dump file read from its root element alone (the first bytes, decompressed when
 * the name ends in .gz), so the bulk import can read files of different kinds side by side
 * while files of one kind keep their order (a later file's record wins, bulk-load.ts). Null
 * when the start of the file names no Discogs kind: the worker reading it then reports why.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { type DiscogsKind, isDiscogsKind } from './kinds.js';
import { rootName } from './record-cutter.js';

/** A root element further in than this is not looked for here. */
const PEEK_BYTES = 64 * 1024;

export async function peekDumpKind(file: string): Promise<DiscogsKind | null> {
  const raw = createReadStream(file, { highWaterMark: 16 * 1024 });
  const source = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => source.destroy(error));
  let bytes = Buffer.alloc(0);
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      bytes = Buffer.concat([bytes, chunk]);
      const root = rootName(bytes);
      if (root) return isDiscogsKind(root.name) ? root.name : null;
      if (bytes.length >= PEEK_BYTES) return null;
    }
    return null;
  } catch {
    // Unreadable: the worker reading the file names the error.
    return null;
  } finally {
    raw.destroy();
    source.destroy();
  }
}
