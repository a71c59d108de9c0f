/** MAIL_TRANSPORT → a Mailer: `log`, `smtp://` / `smtps://` (nodemailer), `https://` (JSON POST). */
import type { Logger, Mailer } from '@catalogue/core';
import { createHttpMailer } from './http-mailer.js';
import { createLogMailer } from './log-mailer.js';
import { createSmtpMailer } from './smtp-mailer.js';

export interface MailerOptions {
  /** MAIL_FROM */
  from: string;
  logger: Logger;
  /** `log` only: print sign-in links whole (the host says its log is private). */
  showLinks?: boolean;
}

export function mailerFromTransport(transport: string | null | undefined, options: MailerOptions): Mailer | undefined {
  if (!transport) return undefined;
  if (transport === 'log') return createLogMailer(options.logger, { showLinks: options.showLinks === true });
  const scheme = transport.slice(0, transport.indexOf(':'));
  if (scheme === 'smtp' || scheme === 'smtps') return createSmtpMailer(transport, options.from);
  if (scheme === 'https' || scheme === 'http') return createHttpMailer(transport, options.from);
  throw new Error(`MAIL_TRANSPORT must be log, smtp://, smtps:// or https:// (got scheme "${scheme}")`);
}
