import { openInputFile } from '../cli/open-input-file.js';

/** Drains a batch generator; `error` is what it threw, if anything. */
export async function drain<Row>(batches: AsyncIterable<Row[]>): Promise<{ batches: Row[][]; error: unknown }> {
  const collected: Row[][] = [];
  try {
    for await (const batch of batches) collected.push(batch);
    return { batches: collected, error: undefined };
  } catch (error) {
    return { batches: collected, error };
  }
}

export async function chunksOfFile(file: string): Promise<AsyncIterable<Uint8Array>> {
  return (await openInputFile(file)).chunks;
}
