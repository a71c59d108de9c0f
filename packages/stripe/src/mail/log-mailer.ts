/**
 * MAIL_TRANSPORT=log: for development. Logs who would get which e-mail, never the body (it
 * may hold a key or a sign-in link).
 */
import type { Logger, Mailer } from '@catalogue/core';

export function createLogMailer(logger: Logger): Mailer {
  return {
    async send(message) {
      logger.log({ level: 'info', kind: 'mail.logged', to: message.to, subject: message.subject, body: '(withheld: may hold a secret)' });
    },
  };
}
