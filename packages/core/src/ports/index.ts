/**
 * The only doors out of core, one file per port. Every port has an in-memory implementation in
 * `memory/` and a real one in an adapter package; the conformance suite runs the same
 * assertions on both. Nothing here may name a runtime.
 *
 * What core hands a port from a request has passed validation: every id is within its range
 * (catalogue/id-ranges.ts: at most 2³¹−1) and no text holds U+0000 or a lone surrogate
 * (validation/storable.ts), so an adapter binds them as they are (docs/decisions.md §6).
 */
import type { Accounts } from './accounts.js';
import type { Billing, Mailer } from './billing.js';
import type { Catalogue } from './catalogue.js';
import type { Limiter } from './limiter.js';
import type { Metrics } from './metrics.js';
import type { Probe } from './probe.js';
import type { Alarm, Clock, Hasher, Logger } from './runtime.js';

export type * from './accounts.js';
export type * from './billing.js';
export type * from './catalogue.js';
export { FACET_NAMES } from './catalogue.js';
export type * from './catalogue-writer.js';
export type * from './limiter.js';
export type * from './metrics.js';
export type * from './probe.js';
export type * from './runtime.js';

/**
 * The ports a service is built from. Clock, Logger, Alarm, Hasher and Metrics have defaults.
 * `A` is the part of Accounts its holder uses: the wiring holds all of it (`Ports<Accounts>`),
 * a consumer names its slices (`Ports<DashboardState & CustomersAndKeys>`), and bare `Ports`
 * calls no Accounts method at all.
 */
export interface Ports<A = unknown> {
  catalogue: Catalogue;
  accounts: A;
  limiter: Limiter;
  mailer?: Mailer;
  /** Stripe; without it signup and the webhook answer 503 billing_unavailable. */
  billing?: Billing;
  /** What `GET /readyz` checks (the database, the limit store); none: always ready. */
  probes?: readonly Probe[];
  clock: Clock;
  logger: Logger;
  alarm: Alarm;
  hasher: Hasher;
  metrics: Metrics;
}

export type PortsInput = Omit<Ports<Accounts>, 'clock' | 'logger' | 'alarm' | 'hasher' | 'metrics'> &
  Partial<Pick<Ports, 'clock' | 'logger' | 'alarm' | 'hasher' | 'metrics'>>;
