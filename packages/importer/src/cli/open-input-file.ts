import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** A dump or feed file opened for streaming, with how far into the (compressed) file we have read. */
export interface InputFile {
  path: string;
  /** Size on disk, i.e. compressed size for `.gz`. */
  size: number;
  /** Decompressed bytes, chunk by chunk. */
  chunks: AsyncIterable<Uint8Array>;
  /** Bytes of the file on disk read so far: progress is measured against `size`. */
  bytesRead(): number;
}

/**
 * Opens `.xml`, `.jsonl` or their `.gz` (Node only). Gzip is chosen by the extension; the read stream is
 * consumed chunk by chunk, so memory does not grow with the file.
 */
export async function openInputFile(path: string): Promise<InputFile> {
  const { size } = await stat(path);
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  let bytesRead = 0;
  // Count bytes as the consumer pulls them (not as the OS delivers them), so progress follows
  // what has been parsed.
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of raw as AsyncIterable<Uint8Array>) {
      bytesRead += chunk.length;
      yield chunk;
    }
  }
  const chunks: AsyncIterable<Uint8Array> = path.endsWith('.gz')
    ? pipeline(counted, createGunzip(), () => {
        // Errors surface through the async iterator of the gunzip stream.
      })
    : counted();
  return { path, size, chunks, bytesRead: () => bytesRead };
}
