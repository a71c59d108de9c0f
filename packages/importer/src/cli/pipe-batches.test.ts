import { describe, expect, it } from 'vitest';
import { pipeBatches } from './pipe-batches.js';

async function* batches(count: number, failAfter?: number): AsyncGenerator<number> {
  for (let index = 0; index < count; index++) {
    if (index === failAfter) throw new Error(`parse failed at batch ${index}`);
    yield index;
  }
}

describe('pipeBatches', () => {
  it('writes every batch in order, one at a time', async () => {
    const written: number[] = [];
    let inFlight = 0;
    await pipeBatches(batches(5), async (batch) => {
      inFlight += 1;
      expect(inFlight).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1));
      written.push(batch);
      inFlight -= 1;
    });
    expect(written).toEqual([0, 1, 2, 3, 4]);
  });

  it('lets the batch in flight finish when parsing fails, then rethrows', async () => {
    const written: number[] = [];
    const run = pipeBatches(batches(5, 2), async (batch) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      written.push(batch);
    });
    await expect(run).rejects.toThrow('parse failed at batch 2');
    expect(written).toEqual([0, 1]);
  });

  it('stops at a failed write and closes the source', async () => {
    const written: number[] = [];
    let closed = false;
    async function* source(): AsyncGenerator<number> {
      try {
        yield* batches(10);
      } finally {
        closed = true;
      }
    }
    const run = pipeBatches(source(), async (batch) => {
      if (batch === 3) throw new Error('write failed');
      written.push(batch);
    });
    await expect(run).rejects.toThrow('write failed');
    expect(written).toEqual([0, 1, 2]);
    expect(closed).toBe(true);
  });
});
