/**
 * Request ids and search ids are ULIDs (sortable, so log lines of one incident sort together).
 * Randomness is drawn from a pooled buffer of crypto random values: one getRandomValues call per
 * 16,384 characters instead of ulidx's default of one per character, which on the hot path cost
 * more than the rest of the id (a search answer's id: ~75 µs of the search route's host CPU at
 * 1 M masters, issue 14 item 3).
 */
import { monotonicFactory, ulid } from 'ulidx';

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

/** A ULID for `time` (ms since the epoch), e.g. a search answer's search_id. */
export function ulidAt(time: number): string {
  return ulid(time, pooledRandom);
}
