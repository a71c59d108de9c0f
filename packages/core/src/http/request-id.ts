/**
 * Request ids are ULIDs (sortable, so log lines of one incident sort together). Randomness is
 * drawn from a pooled buffer: one getRandomValues call per 1,024 ids instead of one per
 * character, which on the hot path cost more than the rest of the id.
 */
import { monotonicFactory } from 'ulidx';

const POOL_SIZE = 16_384;
const pool = new Uint32Array(POOL_SIZE);
let next = POOL_SIZE;

function pooledRandom(): number {
  if (next === POOL_SIZE) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  return (pool[next++] as number) / 4_294_967_296;
}

export const newRequestId: () => string = monotonicFactory(pooledRandom);
