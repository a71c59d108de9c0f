/**
 * Call ids and their "counted" markers. A call whose reply the limiter did not get (a timeout)
 * is replayed later, and its marker tells the replay whether the script had counted it after
 * all (usage-ledger.ts). Markers live 15 minutes, so at thousands of calls a second a key per
 * call held millions of keys (about 100 bytes each); here a marker is one bit of a bitmap,
 * 2^20 calls (128 KB) a key. Ids a replay makes up (a group's overflow, counts lost with a Redis
 * restart) keep a key each, in their customer's slot.
 *
 * The bitmap must sit in the slot of the customer's keys (one script, Redis Cluster: keys.ts),
 * so each instance numbers its calls per slot, `<instance>.<slot>.<seq>`: the bits of a slot's
 * bitmap are dense (one per call of the customers of that slot), and the id alone names its
 * marker, whatever the customer (what the replay reads back, markerOf).
 */
import type { LimiterKeys } from './keys.js';
import { SLOTS } from './slots.js';

export const CALLS_PER_BITMAP = 2 ** 20;

export interface CallMarker {
  key: string;
  /** The bit of `key`, or -1 for a marker key of its own. */
  bit: number;
}

const NUMBERED = /^([0-9a-f]{16})\.(\d+)\.(\d+)$/;

export interface NumberedCall {
  id: string;
  marker: CallMarker;
}

/**
 * Numbers this instance's calls in each slot (the instance a random 64-bit hex id), each with its
 * marker made alongside (what markerOf parses back out of the id): the admit path makes one per
 * request (issue 14), so no regex there; a slot's bitmap key is made once per 2^20 of its calls.
 */
export function numberedCalls(keys: LimiterKeys, newId: () => string): (slot: number) => NumberedCall {
  const instance = newId().replace(/-/g, '').slice(0, 16);
  const seqs = new Float64Array(SLOTS);
  const bucketKeys = new Map<number, { bucket: number; key: string }>();
  return (slot) => {
    const own = seqs[slot] as number;
    seqs[slot] = own + 1;
    const bucket = Math.floor(own / CALLS_PER_BITMAP);
    let named = bucketKeys.get(slot);
    if (named === undefined || named.bucket !== bucket) {
      named = { bucket, key: keys.callBits(slot, instance, bucket) };
      bucketKeys.set(slot, named);
    }
    return { id: `${instance}.${slot}.${own}`, marker: { key: named.key, bit: own % CALLS_PER_BITMAP } };
  };
}

/** The marker of a call id of `customerId`'s ledger group: a numbered call's bit, or a key of its own. */
export function markerOf(keys: LimiterKeys, customerId: string, callId: string): CallMarker {
  const numbered = NUMBERED.exec(callId);
  if (!numbered) return { key: keys.call(customerId, callId), bit: -1 };
  const seq = Number(numbered[3]);
  return { key: keys.callBits(Number(numbered[2]), numbered[1] as string, Math.floor(seq / CALLS_PER_BITMAP)), bit: seq % CALLS_PER_BITMAP };
}
