/**
 * Call ids and their "counted" markers. A call whose reply the limiter did not get (a timeout)
 * is replayed later, and its marker tells the replay whether the script had counted it after
 * all (usage-ledger.ts). Markers live 15 minutes, so at thousands of calls a second a key per
 * call held millions of keys (about 100 bytes each); here each limiter instance numbers its
 * calls and a marker is one bit of the instance's bitmap, 2^20 calls (128 KB) a key. Ids a
 * replay makes up (a group's overflow, counts lost with a Redis restart) keep a key each.
 */
import type { LimiterKeys } from './keys.js';

export const CALLS_PER_BITMAP = 2 ** 20;

export interface CallMarker {
  key: string;
  /** The bit of `key`, or -1 for a marker key of its own. */
  bit: number;
}

const NUMBERED = /^([0-9a-f]{16})\.(\d+)$/;

export interface NumberedCall {
  id: string;
  marker: CallMarker;
}

/**
 * Numbers this instance's calls `<instance>.<seq>` (the instance a random 64-bit hex id), each
 * with its marker made alongside (what markerOf parses back out of the id): the admit path
 * makes one per request (issue 14), so no regex there and one bitmap key per 2^20 calls.
 */
export function numberedCalls(keys: LimiterKeys, newId: () => string): () => NumberedCall {
  const instance = newId().replace(/-/g, '').slice(0, 16);
  let seq = 0;
  let bucket = -1;
  let bucketKey = '';
  return () => {
    const own = seq++;
    const ownBucket = Math.floor(own / CALLS_PER_BITMAP);
    if (ownBucket !== bucket) {
      bucket = ownBucket;
      bucketKey = keys.callBits(instance, bucket);
    }
    return { id: `${instance}.${own}`, marker: { key: bucketKey, bit: own % CALLS_PER_BITMAP } };
  };
}

export function markerOf(keys: LimiterKeys, callId: string): CallMarker {
  const numbered = NUMBERED.exec(callId);
  if (!numbered) return { key: keys.call(callId), bit: -1 };
  const seq = Number(numbered[2]);
  return { key: keys.callBits(numbered[1] as string, Math.floor(seq / CALLS_PER_BITMAP)), bit: seq % CALLS_PER_BITMAP };
}
