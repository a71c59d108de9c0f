/** The tier table of docs/decisions.md §2, and how contract overrides combine with it. */
import type { Customer, LimitPolicy, TierId } from './ports/index.js';

export const TIER_IDS = ['self_serve_49', 'self_serve_99', 'self_serve_299', 'contract_2000'] as const satisfies readonly TierId[];

export interface Tier {
  id: TierId;
  /** What a customer reads (the dashboard, the plan page), never the id. */
  name: string;
  /** US dollars a month (the contract tier: what the contract starts at). */
  priceUsdPerMonth: number;
  quotaPerMonth: number;
  burstPerMinute: number;
  concurrency: number;
  batchMax: number;
  /** US dollars per call past the quota (bill mode); null for the contract tier. */
  overagePerCall: number | null;
  contract: boolean;
}

export const TIERS: Record<TierId, Tier> = {
  self_serve_49: {
    id: 'self_serve_49',
    name: 'Self-serve 49',
    priceUsdPerMonth: 49,
    quotaPerMonth: 10_000,
    burstPerMinute: 60,
    concurrency: 2,
    batchMax: 100,
    overagePerCall: 0.005,
    contract: false,
  },
  self_serve_99: {
    id: 'self_serve_99',
    name: 'Self-serve 99',
    priceUsdPerMonth: 99,
    quotaPerMonth: 50_000,
    burstPerMinute: 300,
    concurrency: 2,
    batchMax: 100,
    overagePerCall: 0.003,
    contract: false,
  },
  self_serve_299: {
    id: 'self_serve_299',
    name: 'Self-serve 299',
    priceUsdPerMonth: 299,
    quotaPerMonth: 250_000,
    burstPerMinute: 600,
    concurrency: 5,
    batchMax: 100,
    overagePerCall: 0.0015,
    contract: false,
  },
  contract_2000: {
    id: 'contract_2000',
    name: 'Contract',
    priceUsdPerMonth: 2000,
    quotaPerMonth: 1_000_000,
    burstPerMinute: 1000,
    concurrency: 10,
    batchMax: 500,
    overagePerCall: null,
    contract: true,
  },
};

/** Contract customers crossing this many calls in a month raise `quota.contract_review` once. */
export const CONTRACT_REVIEW_CALLS = 5_000_000;

export function isTierId(value: unknown): value is TierId {
  return typeof value === 'string' && value in TIERS;
}

/** Limits in force for a customer: the tier, then contract overrides. */
export function policyFor(customer: Customer): LimitPolicy & { batchMax: number } {
  const tier = TIERS[customer.tier];
  const o = tier.contract ? customer.limits : null;
  return {
    burstPerMinute: o?.burst_per_minute ?? tier.burstPerMinute,
    concurrency: o?.concurrency ?? tier.concurrency,
    quotaPerMonth: o?.quota_per_month ?? tier.quotaPerMonth,
    quotaMode: tier.contract ? 'contract' : customer.overage,
    batchMax: o?.batch_max ?? tier.batchMax,
  };
}

// The month of the last call, kept so the hot path formats a date once a month, not per call.
let cachedMonth = { from: 0, to: -1, label: '' };

/** 'YYYY-MM' of the UTC calendar month containing `epochMs`. */
export function monthOf(epochMs: number): string {
  if (epochMs >= cachedMonth.from && epochMs < cachedMonth.to) return cachedMonth.label;
  const d = new Date(epochMs);
  const label = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  cachedMonth = { from: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), to: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), label };
  return label;
}

/** Epoch ms of 00:00 UTC on the 1st of the month containing `epochMs` and of the next month (cached like monthOf). */
export function monthBounds(epochMs: number): { from: number; to: number } {
  if (!(epochMs >= cachedMonth.from && epochMs < cachedMonth.to)) monthOf(epochMs);
  return cachedMonth;
}

/**
 * The UTC day ('YYYY-MM-DD') a usage write made at `at` counts on within `month`: its own day
 * when it falls in the month, else the month's first or last day (a flush after midnight on the
 * 1st of the next month still belongs to the month it counts).
 */
export function usageDay(month: string, at: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const first = Date.UTC(year, m - 1, 1);
  const last = Date.UTC(year, m, 0);
  const day = Math.min(Math.max(at, first), last + 86_399_999);
  return new Date(day).toISOString().slice(0, 10);
}

/** Epoch ms of 00:00 UTC on the 1st of the month after the one containing `epochMs`. */
export function nextMonthStart(epochMs: number): number {
  const d = new Date(epochMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
