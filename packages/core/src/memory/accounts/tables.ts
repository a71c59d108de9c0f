/**
 * The memory store's tables, one object shared by the files of the Accounts slices (as
 * PostgreSQL's tables are by packages/postgres/src/accounts/). Each slice's methods do all their
 * reads and writes without an `await` in between, which makes each atomic the way one
 * PostgreSQL transaction is.
 */
import type { ApiKey, Customer, DashboardSession, LoginToken, OutboxMessage, OverageCursor, RevealRow, SearchEvent } from '../../ports/index.js';

/** What the memory store keeps of a customer's billing beside the customer record itself. */
export interface CustomerBilling {
  checkoutSessionId: string | null;
  stripeSubscriptionId: string | null;
  lastBillingEventAt: Date | null;
}

export interface OutboxRow extends OutboxMessage {
  dead: boolean;
  last_error: string | null;
}

export class AccountTables {
  readonly customers = new Map<string, Customer>();
  readonly keys = new Map<string, ApiKey>();
  readonly keyIdByHash = new Map<string, string>();
  /** Durable usage per `customer:environment:month`, and the same per UTC day. */
  readonly usage = new Map<string, number>();
  readonly usageDays = new Map<string, Map<string, number>>();
  /** How far each month counter generation is durable (DurableUsage.flushUsage). */
  readonly usageFlushes = new Map<string, number>();
  /** Calls made durable one by one, by their places in their counter generation (DurableUsage.addUsageDirect). */
  readonly usageDirect = new Map<string, Set<number>>();
  readonly billing = new Map<string, CustomerBilling>();
  readonly billingEvents = new Set<string>();
  readonly reveals = new Map<string, RevealRow>();
  readonly loginTokens = new Map<string, LoginToken>();
  readonly sessions = new Map<string, DashboardSession>();
  readonly outbox = new Map<string, OutboxRow>();
  readonly overage = new Map<string, OverageCursor>();
  readonly contractReviews = new Set<string>();
  /** Search-event beacons in arrival order. */
  readonly searchEvents: SearchEvent[] = [];

  /** `clock`: what a usage write without `at` counts its day by. */
  constructor(readonly clock: () => number) {}
}
