/**
 * Writes each batch while the next one is being parsed (one batch ahead, never more, so memory
 * stays bounded). Batches are written in order and one at a time. If parsing fails, the batch
 * already handed to the writer is complete and is allowed to finish; the one being assembled
 * never reaches the writer. If a write fails, nothing after it is written.
 */
export async function pipeBatches<B>(batches: AsyncIterable<B>, write: (batch: B) => Promise<void>): Promise<void> {
  const iterator = batches[Symbol.asyncIterator]();
  let pending: Promise<void> | undefined;
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<B>;
      try {
        next = await iterator.next();
      } catch (parseError) {
        finished = true;
        if (pending) await pending;
        throw parseError;
      }
      if (pending) await pending;
      if (next.done) {
        finished = true;
        return;
      }
      pending = write(next.value);
      // Observed by the `await pending` above; this only stops an "unhandled rejection" while
      // the next batch is being parsed.
      pending.catch(() => undefined);
    }
  } finally {
    if (!finished) await iterator.return?.();
  }
}
