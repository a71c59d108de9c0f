import type { Accounts, Alarm, Billing, Catalogue, Clock, Hasher, Limiter, Logger, Mailer } from './ports.js';

/** The ports a service is built from. Clock, Logger, Alarm and Hasher have defaults. */
export interface Ports {
  catalogue: Catalogue;
  accounts: Accounts;
  limiter: Limiter;
  mailer?: Mailer;
  /** Stripe; without it signup and the webhook answer 503 billing_unavailable. */
  billing?: Billing;
  clock: Clock;
  logger: Logger;
  alarm: Alarm;
  hasher: Hasher;
}

export type PortsInput = Omit<Ports, 'clock' | 'logger' | 'alarm' | 'hasher'> & Partial<Pick<Ports, 'clock' | 'logger' | 'alarm' | 'hasher'>>;
