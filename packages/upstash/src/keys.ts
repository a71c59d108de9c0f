/**
 * Redis key names of the limiter. Every script's keys share one Redis Cluster slot (slots.ts):
 * a customer's keys carry its id as hash tag (`<prefix>:{<customerId>}:…`, its leases too,
 * though they are per API key), a public window its ip (`<prefix>:public:{<ip>}:<window>`), and
 * what is not per customer — an instance's call-marker bitmaps, the accounts epoch in a cluster —
 * is kept once per slot under a tag of that slot (slotTag), so it joins any customer's script.
 *
 * The public per-IP keys follow @upstash/ratelimit's layout (`[prefix, identifier].join(':')` +
 * `:` + window index) with `{<ip>}` as identifier: `Ratelimit.slidingWindow` with prefix
 * `<prefix>:public` and identifier `{<ip>}` reads the very same counters.
 *
 * The layout of issue 27 (hash tags) replaced `<prefix>:burst:<c>:<env>`,
 * `<prefix>:month:<c>:<env>:<month>` and `<prefix>:lease:<keyId>`; see CHANGELOG for the
 * migration (legacyMonth below).
 */
import type { Environment } from '@catalogue/core';
import { keySlot, SLOTS, slotTag } from './slots.js';

export interface LimiterKeyOptions {
  /**
   * True on a Redis Cluster: one accounts epoch per cluster slot instead of one key, the admit
   * script reading the copy in its customer's slot and bumpAuthEpoch writing every copy
   * (docs/decisions.md §3). Asked per use: a client learns the store's shape once it answers
   * (redis-client.ts), which may be after the limiter was made.
   */
  epochPerSlot?: () => boolean;
}

export interface LimiterKeys {
  /** Prefix to hand @upstash/ratelimit so it shares the public per-IP counters. */
  readonly publicPrefix: string;
  /** The cluster slot of a customer's keys. */
  slotOf(customerId: string): number;
  /** Sorted set of the calls of the last minute, scored by time (epoch ms). */
  burst(customerId: string, environment: Environment): string;
  publicBurst(ip: string, window: number): string;
  /** Hash { n: calls this month, g: generation id of the counter }. */
  month(customerId: string, environment: Environment, month: string): string;
  /** The month counter's name before issue 27 (no hash tag), read once when the new one is seeded. */
  legacyMonth(customerId: string, environment: Environment, month: string): string;
  /** Sorted set of one API key's lease ids scored by expiry (epoch ms), in its customer's slot. */
  leases(customerId: string, keyId: string): string;
  /** Short-lived marker that a call id has been counted (makes counting idempotent). */
  call(customerId: string, callId: string): string;
  /** One bit per call of an instance in one slot: its calls' "counted" markers (call-markers.ts). */
  callBits(slot: number, instance: string, bucket: number): string;
  /** The accounts epoch the admit script of a customer in `slot` reads (a random id moved on by every change the key gate reads). */
  authEpoch(slot: number): string;
  /** Every copy of the accounts epoch: what bumpAuthEpoch writes. */
  authEpochs(): string[];
  /**
   * Set of the month counters of `month` that took calls (`<environment>:<customerId>`): what a
   * flush reads. One key of its own (its scripts touch nothing else), so any slot may hold it.
   */
  counted(month: string): string;
}

export function limiterKeys(prefix: string, options: LimiterKeyOptions = {}): LimiterKeys {
  const publicPrefix = `${prefix}:public`;
  // The slot-tag table is made here, with the limiter, rather than on its first request.
  slotTag(0);
  const epoch = `${prefix}:auth:epoch`;
  const slotEpoch = (slot: number) => `${prefix}:{${slotTag(slot)}}:auth:epoch`;
  const burst = (customerId: string, environment: Environment) => `${prefix}:{${customerId}}:burst:${environment}`;
  return {
    publicPrefix,
    // The slot of a key of the customer, so a customer id with braces of its own is placed as Redis places it.
    slotOf: (customerId) => keySlot(burst(customerId, 'live')),
    burst,
    publicBurst: (ip, window) => `${publicPrefix}:{${ip}}:${window}`,
    month: (customerId, environment, month) => `${prefix}:{${customerId}}:month:${environment}:${month}`,
    legacyMonth: (customerId, environment, month) => `${prefix}:month:${customerId}:${environment}:${month}`,
    leases: (customerId, keyId) => `${prefix}:{${customerId}}:lease:${keyId}`,
    call: (customerId, callId) => `${prefix}:{${customerId}}:call:${callId}`,
    callBits: (slot, instance, bucket) => `${prefix}:{${slotTag(slot)}}:calls:${instance}:${bucket}`,
    authEpoch: (slot) => (options.epochPerSlot?.() ? slotEpoch(slot) : epoch),
    authEpochs: () => (options.epochPerSlot?.() ? Array.from({ length: SLOTS }, (_, slot) => slotEpoch(slot)) : [epoch]),
    counted: (month) => `${prefix}:counted:${month}`,
  };
}
