/** A Mailer that keeps messages in memory, optionally failing the next N sends (retry tests). */
import type { Mailer, MailMessage } from '../ports/index.js';

export interface MemoryMailer extends Mailer {
  readonly sent: MailMessage[];
  /** The next `count` sends throw, as a transport that is down would. */
  failNext(count: number): void;
}

export function createMemoryMailer(): MemoryMailer {
  const sent: MailMessage[] = [];
  let failures = 0;
  return {
    sent,
    failNext(count) {
      failures = count;
    },
    async send(message) {
      if (failures > 0) {
        failures--;
        throw new Error('memory mailer: transport down');
      }
      sent.push({ ...message });
    },
  };
}
