/**
 * Redis key names of the limiter. The public per-IP keys follow @upstash/ratelimit's layout
 * (`[prefix, identifier].join(':')` + `:` + window index), so `Ratelimit.slidingWindow` with
 * prefix `<prefix>:public` reads the very same counters.
 */
import type { Environment } from '@catalogue/core';

export interface LimiterKeys {
  /** Prefix to hand @upstash/ratelimit so it shares the public per-IP counters. */
  readonly publicPrefix: string;
  /** Sorted set of the calls of the last minute, scored by time (epoch ms). */
  burst(customerId: string, environment: Environment): string;
  publicBurst(ip: string, window: number): string;
  /** Hash { n: calls this month, g: generation id of the counter }. */
  month(customerId: string, environment: Environment, month: string): string;
  /** Sorted set of lease ids scored by expiry (epoch ms). */
  leases(keyId: string): string;
  /** Short-lived marker that a call id has been counted (makes counting idempotent). */
  call(callId: string): string;
  /** One bit per call of an instance: its calls' "counted" markers (call-markers.ts). */
  callBits(instance: string, bucket: number): string;
  /** The accounts epoch: a random id moved on by every change the key gate reads. */
  readonly authEpoch: string;
  /** Set of the month counters of `month` that took calls (`<environment>:<customerId>`): what a flush reads. */
  counted(month: string): string;
}

export function limiterKeys(prefix: string): LimiterKeys {
  const publicPrefix = `${prefix}:public`;
  return {
    publicPrefix,
    burst: (customerId, environment) => `${prefix}:burst:${customerId}:${environment}`,
    publicBurst: (ip, window) => `${publicPrefix}:${ip}:${window}`,
    month: (customerId, environment, month) => `${prefix}:month:${customerId}:${environment}:${month}`,
    leases: (keyId) => `${prefix}:lease:${keyId}`,
    call: (callId) => `${prefix}:call:${callId}`,
    callBits: (instance, bucket) => `${prefix}:calls:${instance}:${bucket}`,
    authEpoch: `${prefix}:auth:epoch`,
    counted: (month) => `${prefix}:counted:${month}`,
  };
}
