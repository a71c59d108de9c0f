/**
 * Usage jobs (overage.ts): a `bill` customer's calls past the quota reported as meter events,
 * each excess once under an identifier that a resend repeats; contract crossings reviewed once.
 */
import { describe, expect, it } from 'vitest';
import type { Accounts, Customer, LogRecord, OverageCursor, OverageReport, Ports } from '../ports/index.js';
import { overageIdentifier, reportOverage, reviewContracts } from './overage.js';

const customer = (id: string, over: Partial<Customer> = {}): Customer => ({
  id,
  email: `${id}@example.com`,
  name: null,
  tier: 'self_serve_49',
  status: 'active',
  overage: 'bill',
  limits: null,
  past_due_since: null,
  created_at: new Date(0),
  stripe_customer_id: `cus_${id}`,
  ...over,
});

interface World {
  customers: Customer[];
  /** `${customerId}:${environment}:${month}` → the limiter's count (a rejection when 'down'). */
  live?: Record<string, number>;
  liveDown?: boolean;
  durable?: Record<string, number>;
  cursors?: Record<string, OverageCursor>;
  claimable?: boolean;
  /** The overage claim is refused: another instance claimed the cursor since it was read. */
  claimRefused?: boolean;
  billing?: boolean;
}

function portsWith(world: World) {
  const reports: OverageReport[] = [];
  const steps: string[] = [];
  const logs: LogRecord[] = [];
  const alarms: Array<[string, unknown]> = [];
  const claims: string[] = [];
  const ports = {
    limiter: {
      monthCount: async (id: string, env: string, month: string) => {
        if (world.liveDown) throw new Error('redis down');
        return world.live?.[`${id}:${env}:${month}`] ?? 0;
      },
    },
    accounts: {
      listCustomersForUsageReview: async () => world.customers,
      getUsage: async (id: string, env: string, month: string) => world.durable?.[`${id}:${env}:${month}`] ?? 0,
      getOverageCursor: async (id: string, month: string) => world.cursors?.[`${id}:${month}`] ?? { reported: 0, pending: null },
      setOveragePending: async (id: string, month: string, through: number, from: number) => {
        steps.push(`pending ${id} ${month} ${through} from ${from}`);
        // Another instance's claim since the cursor was read refuses this one (docs/decisions.md §4).
        return world.claimRefused !== true;
      },
      commitOverage: async (id: string, month: string, through: number) => {
        steps.push(`commit ${id} ${month} ${through}`);
      },
      claimContractReview: async (id: string, month: string) => {
        claims.push(`${id} ${month}`);
        return world.claimable ?? true;
      },
    },
    billing:
      world.billing === false
        ? undefined
        : {
            reportOverage: async (report: OverageReport) => {
              reports.push(report);
              steps.push(`report ${report.identifier} ${report.value}`);
            },
          },
    logger: { log: (r: LogRecord) => logs.push(r) },
    alarm: { raise: (kind: string, detail: unknown) => alarms.push([kind, detail]) },
  } as unknown as Ports<Accounts>;
  return { ports, reports, steps, logs, alarms, claims };
}

const NOW = new Date(Date.UTC(2026, 2, 10, 12));

describe('reportOverage', () => {
  it('reports the growth of the excess past the quota, marking it pending first and committing it after', async () => {
    const t = portsWith({
      customers: [customer('c1')],
      live: { 'c1:live:2026-03': 10_250 },
      durable: { 'c1:live:2026-03': 10_100 },
      cursors: { 'c1:2026-03': { reported: 100, pending: null } },
    });
    expect(await reportOverage(t.ports, NOW)).toBe(150);
    expect(t.steps).toEqual(['pending c1 2026-03 250 from 100', 'report overage_c1_2026-03_250 150', 'commit c1 2026-03 250']);
    expect(t.reports).toEqual([{ stripeCustomerId: 'cus_c1', value: 150, identifier: 'overage_c1_2026-03_250', timestamp: NOW }]);
    expect(t.logs).toEqual([{ level: 'info', kind: 'billing.overage_reported', customer_id: 'c1', month: '2026-03', calls: 150, through: 250 }]);
    expect(overageIdentifier('c', '2026-01', 7)).toBe('overage_c_2026-01_7');
  });

  it('reads the larger of the live and durable counts, and the durable one when the limiter fails', async () => {
    const world = { customers: [customer('c1')], live: { 'c1:live:2026-03': 10_010 }, durable: { 'c1:live:2026-03': 10_030 } };
    expect(await reportOverage(portsWith(world).ports, NOW)).toBe(30);
    expect(await reportOverage(portsWith({ ...world, liveDown: true }).ports, NOW)).toBe(30);
    expect(await reportOverage(portsWith({ ...world, durable: {} }).ports, NOW)).toBe(10);
    // Test-environment calls are never billed.
    expect(await reportOverage(portsWith({ customers: [customer('c1')], live: { 'c1:test:2026-03': 20_000 } }).ports, NOW)).toBe(0);
  });

  it('nothing at or under the quota, nor when the excess was already reported', async () => {
    expect(await reportOverage(portsWith({ customers: [customer('c1')], live: { 'c1:live:2026-03': 10_000 } }).ports, NOW)).toBe(0);
    const t = portsWith({ customers: [customer('c1')], live: { 'c1:live:2026-03': 10_050 }, cursors: { 'c1:2026-03': { reported: 50, pending: null } } });
    expect(await reportOverage(t.ports, NOW)).toBe(0);
    expect(t.steps).toEqual([]);
  });

  it('finishes a report an earlier run began under the same identifier before anything new', async () => {
    const t = portsWith({
      customers: [customer('c1')],
      live: { 'c1:live:2026-03': 10_300 },
      cursors: { 'c1:2026-03': { reported: 100, pending: 180 } },
    });
    expect(await reportOverage(t.ports, NOW)).toBe(120);
    expect(t.steps).toEqual([
      'report overage_c1_2026-03_180 80',
      'commit c1 2026-03 180',
      'pending c1 2026-03 300 from 180',
      'report overage_c1_2026-03_300 120',
      'commit c1 2026-03 300',
    ]);
    // A pending mark that is not ahead of the confirmed one is not sent again, only cleared
    // (or no claim would hold again).
    const done = portsWith({ customers: [customer('c1')], live: { 'c1:live:2026-03': 10_100 }, cursors: { 'c1:2026-03': { reported: 100, pending: 100 } } });
    expect(await reportOverage(done.ports, NOW)).toBe(0);
    expect(done.steps).toEqual(['commit c1 2026-03 100']);
  });

  it('reports nothing when another instance claimed the month since the cursor was read', async () => {
    const t = portsWith({
      customers: [customer('c1')],
      live: { 'c1:live:2026-03': 10_250 },
      cursors: { 'c1:2026-03': { reported: 100, pending: null } },
      claimRefused: true,
    });
    expect(await reportOverage(t.ports, NOW)).toBe(0);
    expect(t.steps).toEqual(['pending c1 2026-03 250 from 100']);
    expect(t.reports).toEqual([]);
  });

  it('reviews the previous month too, so its last minutes are not lost at the turn', async () => {
    const turn = new Date(Date.UTC(2026, 0, 1, 0, 0, 30));
    const t = portsWith({ customers: [customer('c1')], live: { 'c1:live:2025-12': 10_007, 'c1:live:2026-01': 10_001 } });
    expect(await reportOverage(t.ports, turn)).toBe(8);
    expect(t.reports.map((r) => r.identifier)).toEqual(['overage_c1_2025-12_7', 'overage_c1_2026-01_1']);
  });

  it('only self-serve customers in bill mode with a Stripe customer; nothing without billing', async () => {
    const live = { 'a:live:2026-03': 20_000, 'b:live:2026-03': 20_000, 'c:live:2026-03': 6_000_000, 'd:live:2026-03': 20_000, 'e:live:2026-03': 50_001 };
    const t = portsWith({
      customers: [
        customer('a', { overage: 'block' }),
        customer('b', { stripe_customer_id: null }),
        customer('c', { tier: 'contract_2000' }),
        customer('d'),
        customer('e', { tier: 'self_serve_99' }),
      ],
      live,
    });
    expect(await reportOverage(t.ports, NOW)).toBe(10_001);
    expect(t.reports.map((r) => [r.stripeCustomerId, r.value])).toEqual([
      ['cus_d', 10_000],
      ['cus_e', 1],
    ]);
    expect(await reportOverage(portsWith({ customers: [customer('d')], live, billing: false }).ports, NOW)).toBe(0);
  });
});

describe('reviewContracts', () => {
  it('a contract customer past 5,000,000 live calls this month: claimed, logged and alarmed once', async () => {
    const t = portsWith({
      customers: [customer('k', { tier: 'contract_2000' }), customer('s'), customer('k2', { tier: 'contract_2000' })],
      live: { 'k:live:2026-03': 5_000_001, 's:live:2026-03': 9_000_000, 'k2:live:2026-03': 5_000_000 },
    });
    await reviewContracts(t.ports, NOW);
    expect(t.claims).toEqual(['k 2026-03']);
    const detail = { customer_id: 'k', environment: 'live', month: '2026-03', calls: 5_000_001 };
    expect(t.logs).toEqual([{ level: 'warn', kind: 'quota.contract_review', ...detail }]);
    expect(t.alarms).toEqual([['quota.contract_review', detail]]);
  });

  it('nothing when the month was already claimed', async () => {
    const t = portsWith({ customers: [customer('k', { tier: 'contract_2000' })], durable: { 'k:live:2026-03': 6_000_000 }, claimable: false });
    await reviewContracts(t.ports, NOW);
    expect(t.claims).toEqual(['k 2026-03']);
    expect([t.logs, t.alarms]).toEqual([[], []]);
  });
});
