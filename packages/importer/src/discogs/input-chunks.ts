import { ImportError } from './record-error.js';

export type ByteInput = AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;

/**
 * The chunks of a Node stream, an async iterable or a web ReadableStream. A failure to read
 * (a truncated gzip, an I/O error) becomes an ImportError naming the file.
 */
export async function* chunksOf(input: ByteInput, source: string): AsyncGenerator<Uint8Array | string> {
  try {
    if ('getReader' in input) {
      const reader = input.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    }
    yield* input;
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError({ source }, `cannot read the file: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
