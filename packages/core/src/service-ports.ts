import type { Accounts, Alarm, Catalogue, Clock, Limiter, Logger, Mailer } from './ports.js';

/** The ports a service is built from. Clock, Logger and Alarm have defaults. */
export interface Ports {
  catalogue: Catalogue;
  accounts: Accounts;
  limiter: Limiter;
  mailer?: Mailer;
  clock: Clock;
  logger: Logger;
  alarm: Alarm;
}

export type PortsInput = Omit<Ports, 'clock' | 'logger' | 'alarm'> & Partial<Pick<Ports, 'clock' | 'logger' | 'alarm'>>;
